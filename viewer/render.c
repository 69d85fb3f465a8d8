/* OpenGL 3.3 core drawing: see render.h. Matrices are column-major (cglm). */
#include "render.h"

#include <cglm/cglm.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The software renderers of the tests and the benchmark (Mesa's llvmpipe) are fill-bound, so the
 * work is moved out of the fragment shader. Lighting is per vertex: Lambert sun + hemispheric
 * ambient, for the front and the back face (two-sided surfaces; a normal of length 2 asks for
 * the front's light on both faces, as terrain skirts need), each a per-channel factor L on
 * the albedo. The frame is written in sRGB (gamma 2.2); since (albedo·L)^(1/2.2) =
 * albedo^(1/2.2)·L^(1/2.2), the vertex shader encodes L and the vertex colour, and a texture's
 * sRGB texels are used as they are: the fragment shader only multiplies. The haze is mixed in
 * the encoded colour, with weight 0.85·d²/(d² + F²) (half at the haze distance F; no root, no
 * exponential per fragment). */
static const char *lit_vs =
    "#version 330 core\n"
    "layout(location=0) in vec3 a_pos; layout(location=1) in vec3 a_normal;\n"
    "layout(location=2) in vec3 a_color; layout(location=3) in vec2 a_uv;\n"
    "uniform mat4 u_mvp; uniform mat4 u_model; uniform vec3 u_sun;\n"
    "out vec3 v_front; out vec3 v_back; out vec3 v_color; out vec2 v_uv; out vec3 v_rel;\n"
    "vec3 light(vec3 n){ float sun = max(dot(n, u_sun), 0.0); float sky = 0.5 + 0.5*n.z;\n"
    "  return pow(vec3(1.0,0.96,0.88)*0.75*sun + vec3(0.55,0.62,0.75)*(0.25+0.25*sky), vec3(1.0/2.2)); }\n"
    "void main(){ vec4 w = u_model*vec4(a_pos,1.0); v_rel = w.xyz;\n"
    "  vec3 n = normalize(mat3(u_model)*a_normal); v_front = light(n);\n"
    "  v_back = dot(a_normal, a_normal) > 2.0 ? v_front : light(-n);\n"
    "  v_color = pow(a_color, vec3(1.0/2.2)); v_uv = a_uv; gl_Position = u_mvp*vec4(a_pos,1.0); }\n";

static const char *lit_fs =
    "#version 330 core\n"
    "in vec3 v_front; in vec3 v_back; in vec3 v_color; in vec2 v_uv; in vec3 v_rel;\n"
    "uniform vec3 u_tint; uniform vec3 u_emissive; uniform int u_use_texture;\n"
    "uniform sampler2D u_texture; uniform float u_fog2; uniform float u_opacity;\n"
    "out vec4 frag;\n"
    "void main(){ bool inside = u_use_texture==1 || (u_use_texture==2 && v_uv.x >= 0.0 && v_uv.x <= 1.0 &&\n"
    "    v_uv.y >= 0.0 && v_uv.y <= 1.0);\n"
    "  vec4 albedo = inside ? texture(u_texture, v_uv) : vec4(v_color, 1.0);\n"
    "  vec3 c = albedo.rgb*u_tint*(gl_FrontFacing ? v_front : v_back) + u_emissive;\n"
    "  float d2 = dot(v_rel, v_rel); float f = u_fog2 > 0.0 ? 0.85*d2/(d2 + u_fog2) : 0.0;\n"
    "  frag = vec4(mix(c, vec3(0.87,0.90,0.95), f), albedo.a*u_opacity); }\n";

/* The sky: the view direction of each pixel interpolated from the corners of a full-screen
 * triangle (camera-relative matrices put the eye at the origin, so the far-plane point's xyz
 * before the division by w is a direction, linear across the screen). */
static const char *sky_vs =
    "#version 330 core\n"
    "uniform mat4 u_inv; out vec3 v_dir;\n"
    "void main(){ vec2 p = vec2((gl_VertexID==1)?3.0:-1.0, (gl_VertexID==2)?3.0:-1.0);\n"
    "  vec4 b = u_inv*vec4(p,1.0,1.0); v_dir = b.xyz*sign(b.w); gl_Position = vec4(p, 0.9999, 1.0); }\n";

static const char *sky_fs =
    "#version 330 core\n"
    "in vec3 v_dir; out vec4 frag;\n"
    "void main(){ float e = v_dir.z*inversesqrt(dot(v_dir, v_dir));\n"
    "  vec3 horizon = vec3(0.72,0.80,0.90), zenith = vec3(0.20,0.42,0.78), below = vec3(0.30,0.34,0.28);\n"
    "  vec3 c = e >= 0.0 ? mix(horizon, zenith, sqrt(e)) : mix(horizon, below, min(1.0, -e*8.0));\n"
    "  frag = vec4(c, 1.0); }\n";

static const char *flat_vs =
    "#version 330 core\n"
    "layout(location=0) in vec2 a_pos; layout(location=1) in vec2 a_uv; layout(location=2) in vec4 a_color;\n"
    "uniform vec2 u_screen; out vec2 v_uv; out vec4 v_color;\n"
    "void main(){ v_uv = a_uv; v_color = a_color;\n"
    "  gl_Position = vec4(2.0*a_pos.x/u_screen.x - 1.0, 1.0 - 2.0*a_pos.y/u_screen.y, 0.0, 1.0); }\n";

static const char *flat_fs =
    "#version 330 core\n"
    "in vec2 v_uv; in vec4 v_color; uniform int u_use_texture; uniform sampler2D u_texture; out vec4 frag;\n"
    "void main(){ vec4 c = v_color; if(u_use_texture==1) c *= texture(u_texture, v_uv); frag = c; }\n";

static unsigned compile(GLenum type, const char *src) {
  unsigned s = glCreateShader(type);
  glShaderSource(s, 1, &src, NULL);
  glCompileShader(s);
  int ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    fprintf(stderr, "grip viewer: shader: %s\n", log);
    glDeleteShader(s);
    return 0;
  }
  return s;
}

static unsigned program(const char *vs, const char *fs) {
  unsigned v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
  if (!v || !f) return 0;
  unsigned p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  int ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetProgramInfoLog(p, sizeof log, NULL, log);
    fprintf(stderr, "grip viewer: shader link: %s\n", log);
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

bool renderer_init(renderer *r) {
  memset(r, 0, sizeof *r);
  r->lit_program = program(lit_vs, lit_fs);
  r->sky_program = program(sky_vs, sky_fs);
  r->flat_program = program(flat_vs, flat_fs);
  if (!r->lit_program || !r->sky_program || !r->flat_program) return false;
  r->lit_mvp = glGetUniformLocation(r->lit_program, "u_mvp");
  r->lit_model = glGetUniformLocation(r->lit_program, "u_model");
  r->lit_tint = glGetUniformLocation(r->lit_program, "u_tint");
  r->lit_emissive = glGetUniformLocation(r->lit_program, "u_emissive");
  r->lit_sun = glGetUniformLocation(r->lit_program, "u_sun");
  r->lit_use_texture = glGetUniformLocation(r->lit_program, "u_use_texture");
  r->lit_texture = glGetUniformLocation(r->lit_program, "u_texture");
  r->lit_fog = glGetUniformLocation(r->lit_program, "u_fog2");
  r->lit_opacity = glGetUniformLocation(r->lit_program, "u_opacity");
  r->sky_inv_view_proj = glGetUniformLocation(r->sky_program, "u_inv");
  r->flat_screen = glGetUniformLocation(r->flat_program, "u_screen");
  r->flat_use_texture = glGetUniformLocation(r->flat_program, "u_use_texture");
  r->flat_texture = glGetUniformLocation(r->flat_program, "u_texture");
  glGenVertexArrays(1, &r->sky_vao);
  glGenVertexArrays(1, &r->flat_vao);
  glGenBuffers(1, &r->flat_vbo);
  glBindVertexArray(r->flat_vao);
  glBindBuffer(GL_ARRAY_BUFFER, r->flat_vbo);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)0);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)(2 * sizeof(float)));
  glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)(4 * sizeof(float)));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  glBindVertexArray(0);
  r->fog_distance = 900.0f;
  r->opacity = 1.0f;
  return true;
}

void renderer_free(renderer *r) {
  if (r->lit_program) glDeleteProgram(r->lit_program);
  if (r->sky_program) glDeleteProgram(r->sky_program);
  if (r->flat_program) glDeleteProgram(r->flat_program);
  if (r->sky_vao) glDeleteVertexArrays(1, &r->sky_vao);
  if (r->flat_vao) glDeleteVertexArrays(1, &r->flat_vao);
  if (r->flat_vbo) glDeleteBuffers(1, &r->flat_vbo);
  memset(r, 0, sizeof *r);
}

bool gpu_mesh_upload(gpu_mesh *g, const mesh_data *m, const double origin[3]) {
  memset(g, 0, sizeof *g);
  if (m->failed) return false;
  memcpy(g->origin, origin, sizeof g->origin);
  glGenVertexArrays(1, &g->vao);
  glGenBuffers(1, &g->vbo);
  glGenBuffers(1, &g->ebo);
  glBindVertexArray(g->vao);
  glBindBuffer(GL_ARRAY_BUFFER, g->vbo);
  glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(m->vertex_count * sizeof(mesh_vertex)), m->vertices, GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(m->index_count * sizeof(uint32_t)), m->indices, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, position));
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, normal));
  glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, color));
  glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, sizeof(mesh_vertex), (void *)offsetof(mesh_vertex, uv));
  for (int i = 0; i < 4; ++i) glEnableVertexAttribArray((unsigned)i);
  glBindVertexArray(0);
  g->index_count = (int)m->index_count;
  return true;
}

void gpu_mesh_free(gpu_mesh *g) {
  if (g->vao) glDeleteVertexArrays(1, &g->vao);
  if (g->vbo) glDeleteBuffers(1, &g->vbo);
  if (g->ebo) glDeleteBuffers(1, &g->ebo);
  memset(g, 0, sizeof *g);
}

void renderer_set_camera(renderer *r, const double eye[3], const double target[3], const double up[3], double fov_y,
                         double aspect, double near_m, double far_m) {
  memcpy(r->eye, eye, sizeof r->eye);
  vec3 origin = {0.0f, 0.0f, 0.0f};
  vec3 center = {(float)(target[0] - eye[0]), (float)(target[1] - eye[1]), (float)(target[2] - eye[2])};
  vec3 upv = {(float)up[0], (float)up[1], (float)up[2]};
  mat4 view, proj, vp;
  glm_lookat(origin, center, upv, view);
  glm_perspective((float)fov_y, (float)aspect, (float)near_m, (float)far_m, proj);
  glm_mat4_mul(proj, view, vp);
  memcpy(r->view_proj, vp, sizeof r->view_proj);
}

void renderer_draw_sky(renderer *r) {
  mat4 vp, inv;
  memcpy(vp, r->view_proj, sizeof vp);
  glm_mat4_inv(vp, inv);
  /* Drawn last at the far plane: only where no geometry is (depth test LEQUAL, no depth write). */
  glDepthMask(GL_FALSE);
  glDepthFunc(GL_LEQUAL);
  glUseProgram(r->sky_program);
  glUniformMatrix4fv(r->sky_inv_view_proj, 1, GL_FALSE, (const float *)inv);
  glBindVertexArray(r->sky_vao);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
}

void renderer_draw_mesh(renderer *r, const gpu_mesh *g, const double position[3], const double rot[9],
                        const float tint[3], const float emissive[3], unsigned texture) {
  if (!g->vao || g->index_count == 0) return;
  /* The mesh's origin expressed in its model frame is added before the rotation: world =
   * position + R·(local + origin) for moving meshes (origin 0), position 0 and R = I for static
   * ones (origin = world point). */
  mat4 model = GLM_MAT4_IDENTITY_INIT;
  model[0][0] = (float)rot[0], model[1][0] = (float)rot[1], model[2][0] = (float)rot[2];
  model[0][1] = (float)rot[3], model[1][1] = (float)rot[4], model[2][1] = (float)rot[5];
  model[0][2] = (float)rot[6], model[1][2] = (float)rot[7], model[2][2] = (float)rot[8];
  double t[3];
  for (int i = 0; i < 3; ++i)
    t[i] = position[i] + rot[3 * i] * g->origin[0] + rot[3 * i + 1] * g->origin[1] + rot[3 * i + 2] * g->origin[2] -
           r->eye[i];
  model[3][0] = (float)t[0], model[3][1] = (float)t[1], model[3][2] = (float)t[2];
  mat4 vp, mvp;
  memcpy(vp, r->view_proj, sizeof vp);
  glm_mat4_mul(vp, model, mvp);
  glUseProgram(r->lit_program);
  glUniformMatrix4fv(r->lit_mvp, 1, GL_FALSE, (const float *)mvp);
  glUniformMatrix4fv(r->lit_model, 1, GL_FALSE, (const float *)model);
  static const float one[3] = {1.0f, 1.0f, 1.0f}, zero[3] = {0.0f, 0.0f, 0.0f};
  /* Tint and emissive are linear; the shader works in sRGB-encoded colour (see lit_vs). */
  const float *tn = tint ? tint : one, *em = emissive ? emissive : zero;
  glUniform3f(r->lit_tint, powf(tn[0], 1.0f / 2.2f), powf(tn[1], 1.0f / 2.2f), powf(tn[2], 1.0f / 2.2f));
  glUniform3f(r->lit_emissive, powf(em[0], 1.0f / 2.2f), powf(em[1], 1.0f / 2.2f), powf(em[2], 1.0f / 2.2f));
  glUniform3f(r->lit_sun, 0.45f, -0.35f, 0.82f);
  glUniform1f(r->lit_fog, r->fog_distance * r->fog_distance);
  glUniform1f(r->lit_opacity, r->opacity);
  glUniform1i(r->lit_use_texture, texture ? (r->texture_clamp ? 2 : 1) : 0);
  glUniform1i(r->lit_texture, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glBindVertexArray(g->vao);
  glDrawElements(GL_TRIANGLES, g->index_count, GL_UNSIGNED_INT, 0);
  glBindVertexArray(0);
  r->draw_calls++;
  r->triangles += g->index_count / 3;
}

void renderer_begin_2d(renderer *r, int width, int height) {
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glUseProgram(r->flat_program);
  glUniform2f(r->flat_screen, (float)width, (float)height);
  glUniform1i(r->flat_texture, 0);
  glBindVertexArray(r->flat_vao);
  glBindBuffer(GL_ARRAY_BUFFER, r->flat_vbo);
  r->batch_quads = 0;
}

static void flush_2d(renderer *r) {
  if (r->batch_quads == 0) return;
  glUniform1i(r->flat_use_texture, r->batch_texture ? 1 : 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, r->batch_texture);
  glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)r->batch_quads * 6 * 8 * sizeof(float)), r->batch, GL_STREAM_DRAW);
  glDrawArrays(GL_TRIANGLES, 0, 6 * r->batch_quads);
  r->batch_quads = 0;
}

void renderer_quad_2d(renderer *r, float x, float y, float w, float h, const float c[4], unsigned texture) {
  const int capacity = (int)(sizeof r->batch / sizeof r->batch[0]) / 48;
  if (r->batch_quads > 0 && (texture != r->batch_texture || r->batch_quads == capacity)) flush_2d(r);
  r->batch_texture = texture;
  const float corner[6][4] = {{x, y, 0, 0}, {x + w, y, 1, 0}, {x + w, y + h, 1, 1},
                              {x, y, 0, 0}, {x + w, y + h, 1, 1}, {x, y + h, 0, 1}};
  float *v = &r->batch[r->batch_quads * 48];
  for (int i = 0; i < 6; ++i) {
    memcpy(v + 8 * i, corner[i], 4 * sizeof(float));
    memcpy(v + 8 * i + 4, c, 4 * sizeof(float));
  }
  r->batch_quads++;
}

void renderer_end_2d(renderer *r) {
  flush_2d(r);
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
}

unsigned renderer_texture_rgba(const unsigned char *pixels, int width, int height, bool mipmaps) {
  unsigned t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  if (mipmaps) {
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
  } else {
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  }
  return t;
}
