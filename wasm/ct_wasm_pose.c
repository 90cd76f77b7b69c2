/* ct_wasm_pose.c - the flat WebAssembly ABI of the ground pose (ct_pose_*)
 * for wasm/ct_pose.mjs, beside ct_wasm.c and in its manner: a pose crosses
 * the boundary as 6 doubles (dir then forward), a key as its four parts,
 * results go into caller arrays and errors into (err, errlen). */
#include <emscripten.h>

#include "ct.h"

#define CTW_EXPORT EMSCRIPTEN_KEEPALIVE

static ct_pose ctw__pose(const double *p)
{
    ct_pose pose;
    int k;
    for (k = 0; k < 3; k++) {
        pose.dir[k] = p[k];
        pose.forward[k] = p[3 + k];
    }
    return pose;
}

static void ctw__pose_out(const ct_pose *pose, double *out)
{
    int k;
    for (k = 0; k < 3; k++) {
        out[k] = pose->dir[k];
        out[3 + k] = pose->forward[k];
    }
}

/* pose, out: dir[3] then forward[3]. */
CTW_EXPORT int ctw_pose_move(const double *pose, double forward_m, double right_m, double radius_m,
                             double *out, char *err, size_t errlen)
{
    ct_pose in = ctw__pose(pose), moved;
    ct_result r = ct_pose_move(&in, forward_m, right_m, radius_m, &moved, err, errlen);
    if (r == CT_OK) ctw__pose_out(&moved, out);
    return (int)r;
}

CTW_EXPORT int ctw_pose_heading_in_key(const double *pose, int face, int lod, uint32_t x, uint32_t y,
                                       double *angle_out, char *err, size_t errlen)
{
    ct_pose in = ctw__pose(pose);
    return (int)ct_pose_heading_in_key(&in, ct_key_make(face, lod, x, y), angle_out, err, errlen);
}

CTW_EXPORT int ctw_pose_from_key_heading(int face, int lod, uint32_t x, uint32_t y, double local_x,
                                         double local_y, double angle_rad, double *out,
                                         char *err, size_t errlen)
{
    ct_pose made;
    ct_result r = ct_pose_from_key_heading(ct_key_make(face, lod, x, y), local_x, local_y, angle_rad,
                                           &made, err, errlen);
    if (r == CT_OK) ctw__pose_out(&made, out);
    return (int)r;
}
