/* grip plot's kinds, one file each (app/plot_<kind>.c). Each takes argv[0] = "plot KIND" and
 * the kind's options, and returns the command's exit status. */
#ifndef GRIP_PLOT_KINDS_H
#define GRIP_PLOT_KINDS_H

int plot_engine(int argc, char **argv);
int plot_tyre(int argc, char **argv);
int plot_gg(int argc, char **argv);
int plot_lap(int argc, char **argv);
int plot_compare(int argc, char **argv);
int plot_handling(int argc, char **argv);

#endif
