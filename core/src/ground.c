/* ground.c - fine relief: the ground below the ranges' smallest ridges (about
 * 4 km) down to about four samples of the world's surface_lod.
 *
 * The ranges layer ends at ridges about 4 km apart and the detail noise at
 * 12.5 km waves, so a finer surface_lod only samples a smooth field more
 * densely. This layer adds one octave per LOD past ground_from_lod (two at the
 * first), each octave's noise cell about four samples of its LOD, so every
 * octave a world carries is resolved by its finest chunks and none is wasted
 * below them. The octave count depends on the config only (surface_lod), never
 * on the LOD a chunk asks for, so coarse chunks sample the same field as fine
 * ones and stay exact subsets; everything is evaluated on the 3D unit
 * direction, so cube edges are seamless.
 *
 * Each octave is one pass over the 8 corners of a lattice cell of a 3D
 * gradient noise with analytic derivative. The same corners also pivot two
 * stripe patterns (the "erosion filter" / phacelle idea: stripes aligned with
 * a direction, each corner's stripes anchored at the corner with its own
 * phase, blended with the noise's weights and renormalised to unit amplitude):
 *   - gullies: stripes across the slope of everything coarser (the macro
 *     field, the ranges, and this layer's coarser octaves), so they run
 *     downhill; each finer octave sees the coarser gullies' slope and bends
 *     into them, which gives branching gullies and the spurs between them.
 *     Their strength grows with the slope (flat ground gets none);
 *   - dunes: asymmetric stripes across a fixed east-west wind on dry land
 *     (the moisture field below the desert threshold), in the octaves whose
 *     wavelength is a dune's (about 50 to 700 m).
 * On steep ground the noise turns into ridged ribs (rock outcrops with scree
 * slopes between); on low flat ground the amplitude falls to a share of
 * itself (rolling plains). The sum fades towards the shore, as |a| / (|a| + 2
 * bound) of the land height a above its shore reference, so beaches and lake
 * shores are smooth and the coastline never moves.
 *
 * NOTE: a plain fBm of the same octaves (no gullies) costs about 70% of this
 * and reads as noise from the ground; a 3x3 neighbourhood of pivots (the
 * original filter) costs about 3x per octave for a result the 2x2x2 blend of
 * the lattice corners matches closely enough at these scales.
 *
 * Only + - * / sqrt floor (cos and sin by a Taylor pair, ct__cis): identical
 * natively and in WebAssembly. */
#include "ct_ground.h"

#include <math.h>

/* Unit-sphere frequency whose noise cell is about four samples of LOD 0
 * (the mean sample spacing of LOD L is (pi/2) / (256 2^L) radians; four of
 * them are 1 / 40.7 / 2^L). Octave k of a world has 40 x 2^(from_lod - 1 + k). */
#define CT__GROUND_F0 40.0
/* Share of the amplitude on flat low ground (rolling plains); the rest comes
 * with the coarser field's slope (half at CT__STEEP_HALF m per m) or the
 * height above the shore (half at CT__HIGH_HALF_M), whichever is more. */
#define CT__GROUND_PLAIN 0.3
#define CT__STEEP_HALF 0.12
#define CT__HIGH_HALF_M 1500.0
/* Gullies reach half of ground_gully at this slope (m per m). */
#define CT__GULLY_HALF 0.08
/* Stripes per noise cell: one gully per cell of its octave. */
#define CT__STRIPES 1.0
/* Slope band (m per m) over which the noise turns into rock ribs. */
#define CT__ROCK_LO 0.35
#define CT__ROCK_HI 0.9
/* Dunes: full below moisture CT__DRY_LO, none above CT__DRY_HI (the desert
 * biome starts at 0.3); wavelengths in [CT__DUNE_MIN_M, CT__DUNE_MAX_M]; the
 * dune octaves replace CT__DUNE_SWAP of the noise and add CT__DUNE_GAIN times
 * the octave's amplitude of dune profile. */
#define CT__DRY_LO 0.15
#define CT__DRY_HI 0.32
#define CT__DUNE_MIN_M 40.0
#define CT__DUNE_MAX_M 800.0
#define CT__DUNE_SWAP 0.7
#define CT__DUNE_GAIN 1.5
/* Lee-side skew of the dune profile: cos t + CT__DUNE_SKEW sin 2t. */
#define CT__DUNE_SKEW 0.35
/* Bounds of the shapes, per unit of octave amplitude: the gradient noise and
 * the renormalised stripes stay within 1.05 and 1, the ribs within 1.33; a
 * dune profile within 1 + 0.35. */
#define CT__SHAPE_PEAK 1.4
#define CT__DUNE_PEAK 1.35
#define CT__TWO_PI 6.283185307179586

void ct__ground_prepare(const ct_config *cfg, ct__ground_prep *p)
{
    int k, lod = (int)cfg->surface_lod, from = (int)cfg->ground_from_lod;
    double f, a, sum = 0.0;
    uint32_t base = ct__subseed(cfg->seed, CT_SALT_GROUND);
    p->octaves = 0;
    p->dune_from = p->dune_to = 0;
    p->radius_m = cfg->radius_m;
    p->gully = cfg->ground_gully;
    p->dunes = cfg->ground_dunes;
    p->bound_m = 0.0;
    /* Walk mode shows the contour process alone, as for the detail. */
    if (!(cfg->ground_amplitude_m > 0.0) || cfg->mode == CT_MODE_WALK || lod < from) return;
    p->octaves = lod - from + 2;
    if (p->octaves > CT__GROUND_MAX_OCTAVES) p->octaves = CT__GROUND_MAX_OCTAVES;
    f = CT__GROUND_F0;
    for (k = 1; k < from; k++) f *= 2.0;   /* 40 x 2^(from - 1); from >= 1 */
    a = cfg->ground_amplitude_m;
    p->dune_from = p->octaves;
    for (k = 0; k < p->octaves; k++) {
        double wavelength_m = cfg->radius_m / f;
        p->freq[k] = f;
        p->amp_m[k] = a;
        p->seed[k] = ct__hash2(base, (uint32_t)k);
        if (wavelength_m <= CT__DUNE_MAX_M && wavelength_m >= CT__DUNE_MIN_M) {
            if (p->dune_from > k) p->dune_from = k;
            p->dune_to = k + 1;
        }
        sum += a * (CT__SHAPE_PEAK + p->dunes * CT__DUNE_GAIN * CT__DUNE_PEAK);
        f *= 2.0;
        a *= cfg->ground_gain;
    }
    if (p->dune_to == 0) p->dune_from = 0;
    p->bound_m = sum;
}

/* One octave's lattice pass: the gradient noise n with its derivative dn
 * (per lattice unit), and the blended (cos, sin) of the gully stripes across
 * q and of the dune stripes across qw (each only when asked for). */
typedef struct ct__goct {
    double n, dn[3];
    double gc, gs, dc, ds;
} ct__goct;

/* Corner hash: xor of primed lattice coordinates (the shared CT__PRIME_*)
 * and the seed, one multiply of its own. The top bits pick the gradient
 * (the shared ct__grad), the low bits the two stripe phases. */
static uint32_t ct__gcorner(uint32_t seed, uint32_t x, uint32_t y, uint32_t z)
{
    uint32_t h = (seed ^ x ^ y ^ z) * 0x9e3779b1u;
    return h ^ (h >> 15);
}

/* e^(2 pi i k / 256): each corner's stripe phase, picked by 8 bits of its
 * hash (literals, so every platform has the same doubles). */
static const double ct__phase[256][2] = {
    {1.0, 0.0},
    {0.9996988186962042, 0.024541228522912288},
    {0.9987954562051724, 0.049067674327418015},
    {0.9972904566786902, 0.07356456359966743},
    {0.9951847266721969, 0.0980171403295606},
    {0.99247953459871, 0.1224106751992162},
    {0.989176509964781, 0.14673047445536175},
    {0.9852776423889412, 0.17096188876030122},
    {0.9807852804032304, 0.19509032201612825},
    {0.9757021300385286, 0.2191012401568698},
    {0.970031253194544, 0.24298017990326387},
    {0.9637760657954398, 0.26671275747489837},
    {0.9569403357322088, 0.29028467725446233},
    {0.9495281805930367, 0.3136817403988915},
    {0.9415440651830208, 0.33688985339222005},
    {0.932992798834739, 0.3598950365349881},
    {0.9238795325112867, 0.3826834323650898},
    {0.9142097557035307, 0.40524131400498986},
    {0.9039892931234433, 0.4275550934302821},
    {0.8932243011955153, 0.44961132965460654},
    {0.881921264348355, 0.47139673682599764},
    {0.8700869911087115, 0.49289819222978404},
    {0.8577286100002721, 0.5141027441932217},
    {0.8448535652497071, 0.5349976198870972},
    {0.8314696123025452, 0.5555702330196022},
    {0.8175848131515837, 0.5758081914178453},
    {0.8032075314806449, 0.5956993044924334},
    {0.7883464276266063, 0.6152315905806268},
    {0.773010453362737, 0.6343932841636455},
    {0.7572088465064846, 0.6531728429537768},
    {0.7409511253549591, 0.6715589548470183},
    {0.724247082951467, 0.6895405447370668},
    {0.7071067811865476, 0.7071067811865475},
    {0.6895405447370669, 0.7242470829514669},
    {0.6715589548470183, 0.7409511253549591},
    {0.6531728429537768, 0.7572088465064845},
    {0.6343932841636455, 0.773010453362737},
    {0.6152315905806268, 0.7883464276266062},
    {0.5956993044924335, 0.8032075314806448},
    {0.5758081914178453, 0.8175848131515837},
    {0.5555702330196023, 0.8314696123025452},
    {0.5349976198870973, 0.844853565249707},
    {0.5141027441932217, 0.8577286100002721},
    {0.4928981922297841, 0.8700869911087113},
    {0.4713967368259978, 0.8819212643483549},
    {0.4496113296546066, 0.8932243011955153},
    {0.4275550934302822, 0.9039892931234433},
    {0.40524131400498986, 0.9142097557035307},
    {0.38268343236508984, 0.9238795325112867},
    {0.3598950365349883, 0.9329927988347388},
    {0.33688985339222005, 0.9415440651830208},
    {0.3136817403988916, 0.9495281805930367},
    {0.29028467725446233, 0.9569403357322089},
    {0.2667127574748984, 0.9637760657954398},
    {0.24298017990326398, 0.970031253194544},
    {0.21910124015686977, 0.9757021300385286},
    {0.19509032201612833, 0.9807852804032304},
    {0.17096188876030136, 0.9852776423889412},
    {0.14673047445536175, 0.989176509964781},
    {0.12241067519921628, 0.99247953459871},
    {0.09801714032956077, 0.9951847266721968},
    {0.07356456359966745, 0.9972904566786902},
    {0.049067674327418126, 0.9987954562051724},
    {0.024541228522912264, 0.9996988186962042},
    {6.123233995736766e-17, 1.0},
    {-0.024541228522912142, 0.9996988186962042},
    {-0.04906767432741801, 0.9987954562051724},
    {-0.07356456359966733, 0.9972904566786902},
    {-0.09801714032956065, 0.9951847266721969},
    {-0.12241067519921615, 0.99247953459871},
    {-0.14673047445536164, 0.989176509964781},
    {-0.17096188876030124, 0.9852776423889412},
    {-0.1950903220161282, 0.9807852804032304},
    {-0.21910124015686966, 0.9757021300385286},
    {-0.24298017990326387, 0.970031253194544},
    {-0.2667127574748983, 0.9637760657954398},
    {-0.29028467725446216, 0.9569403357322089},
    {-0.3136817403988914, 0.9495281805930367},
    {-0.33688985339221994, 0.9415440651830208},
    {-0.35989503653498817, 0.9329927988347388},
    {-0.3826834323650897, 0.9238795325112867},
    {-0.40524131400498975, 0.9142097557035307},
    {-0.42755509343028186, 0.9039892931234434},
    {-0.4496113296546067, 0.8932243011955152},
    {-0.4713967368259977, 0.881921264348355},
    {-0.492898192229784, 0.8700869911087115},
    {-0.5141027441932217, 0.8577286100002721},
    {-0.534997619887097, 0.8448535652497072},
    {-0.555570233019602, 0.8314696123025455},
    {-0.5758081914178453, 0.8175848131515837},
    {-0.5956993044924334, 0.8032075314806449},
    {-0.6152315905806267, 0.7883464276266063},
    {-0.6343932841636454, 0.7730104533627371},
    {-0.6531728429537765, 0.7572088465064847},
    {-0.6715589548470184, 0.740951125354959},
    {-0.6895405447370669, 0.7242470829514669},
    {-0.7071067811865475, 0.7071067811865476},
    {-0.7242470829514668, 0.689540544737067},
    {-0.7409511253549589, 0.6715589548470186},
    {-0.7572088465064846, 0.6531728429537766},
    {-0.773010453362737, 0.6343932841636455},
    {-0.7883464276266062, 0.6152315905806269},
    {-0.8032075314806448, 0.5956993044924335},
    {-0.8175848131515836, 0.5758081914178454},
    {-0.8314696123025453, 0.5555702330196022},
    {-0.8448535652497071, 0.5349976198870972},
    {-0.857728610000272, 0.5141027441932218},
    {-0.8700869911087113, 0.49289819222978415},
    {-0.8819212643483549, 0.47139673682599786},
    {-0.8932243011955152, 0.4496113296546069},
    {-0.9039892931234433, 0.42755509343028203},
    {-0.9142097557035307, 0.4052413140049899},
    {-0.9238795325112867, 0.3826834323650899},
    {-0.9329927988347388, 0.35989503653498833},
    {-0.9415440651830207, 0.33688985339222033},
    {-0.9495281805930367, 0.3136817403988914},
    {-0.9569403357322088, 0.2902846772544624},
    {-0.9637760657954398, 0.2667127574748985},
    {-0.970031253194544, 0.24298017990326407},
    {-0.9757021300385285, 0.21910124015687005},
    {-0.9807852804032304, 0.1950903220161286},
    {-0.9852776423889412, 0.17096188876030122},
    {-0.989176509964781, 0.1467304744553618},
    {-0.99247953459871, 0.12241067519921635},
    {-0.9951847266721968, 0.09801714032956083},
    {-0.9972904566786902, 0.07356456359966773},
    {-0.9987954562051724, 0.049067674327417966},
    {-0.9996988186962042, 0.024541228522912326},
    {-1.0, 1.2246467991473532e-16},
    {-0.9996988186962042, -0.02454122852291208},
    {-0.9987954562051724, -0.049067674327417724},
    {-0.9972904566786902, -0.0735645635996675},
    {-0.9951847266721969, -0.09801714032956059},
    {-0.99247953459871, -0.1224106751992161},
    {-0.989176509964781, -0.14673047445536158},
    {-0.9852776423889413, -0.17096188876030097},
    {-0.9807852804032304, -0.19509032201612836},
    {-0.9757021300385286, -0.2191012401568698},
    {-0.970031253194544, -0.24298017990326382},
    {-0.96377606579544, -0.26671275747489825},
    {-0.9569403357322089, -0.2902846772544621},
    {-0.9495281805930368, -0.3136817403988912},
    {-0.9415440651830208, -0.3368898533922201},
    {-0.932992798834739, -0.3598950365349881},
    {-0.9238795325112868, -0.38268343236508967},
    {-0.9142097557035307, -0.4052413140049897},
    {-0.9039892931234434, -0.4275550934302818},
    {-0.8932243011955153, -0.44961132965460665},
    {-0.881921264348355, -0.47139673682599764},
    {-0.8700869911087115, -0.4928981922297839},
    {-0.8577286100002721, -0.5141027441932216},
    {-0.8448535652497072, -0.5349976198870969},
    {-0.8314696123025455, -0.555570233019602},
    {-0.8175848131515837, -0.5758081914178453},
    {-0.8032075314806449, -0.5956993044924332},
    {-0.7883464276266063, -0.6152315905806267},
    {-0.7730104533627371, -0.6343932841636453},
    {-0.7572088465064848, -0.6531728429537765},
    {-0.7409511253549591, -0.6715589548470184},
    {-0.724247082951467, -0.6895405447370668},
    {-0.7071067811865477, -0.7071067811865475},
    {-0.689540544737067, -0.7242470829514668},
    {-0.6715589548470187, -0.7409511253549589},
    {-0.6531728429537771, -0.7572088465064842},
    {-0.6343932841636459, -0.7730104533627367},
    {-0.6152315905806273, -0.7883464276266059},
    {-0.5956993044924331, -0.803207531480645},
    {-0.5758081914178452, -0.8175848131515838},
    {-0.5555702330196022, -0.8314696123025452},
    {-0.5349976198870973, -0.844853565249707},
    {-0.5141027441932218, -0.857728610000272},
    {-0.4928981922297842, -0.8700869911087113},
    {-0.47139673682599786, -0.8819212643483549},
    {-0.44961132965460693, -0.8932243011955152},
    {-0.4275550934302825, -0.9039892931234431},
    {-0.40524131400499036, -0.9142097557035305},
    {-0.38268343236509034, -0.9238795325112865},
    {-0.35989503653498794, -0.932992798834739},
    {-0.33688985339221994, -0.9415440651830208},
    {-0.31368174039889146, -0.9495281805930367},
    {-0.29028467725446244, -0.9569403357322088},
    {-0.26671275747489853, -0.9637760657954398},
    {-0.24298017990326412, -0.970031253194544},
    {-0.2191012401568701, -0.9757021300385285},
    {-0.19509032201612866, -0.9807852804032303},
    {-0.1709618887603017, -0.9852776423889411},
    {-0.1467304744553623, -0.9891765099647809},
    {-0.12241067519921596, -0.9924795345987101},
    {-0.09801714032956045, -0.9951847266721969},
    {-0.07356456359966736, -0.9972904566786902},
    {-0.04906767432741803, -0.9987954562051724},
    {-0.02454122852291239, -0.9996988186962042},
    {-1.8369701987210297e-16, -1.0},
    {0.02454122852291202, -0.9996988186962042},
    {0.04906767432741766, -0.9987954562051724},
    {0.07356456359966698, -0.9972904566786902},
    {0.09801714032956009, -0.9951847266721969},
    {0.1224106751992156, -0.9924795345987101},
    {0.14673047445536194, -0.9891765099647809},
    {0.17096188876030133, -0.9852776423889412},
    {0.1950903220161283, -0.9807852804032304},
    {0.21910124015686974, -0.9757021300385286},
    {0.24298017990326376, -0.970031253194544},
    {0.2667127574748982, -0.96377606579544},
    {0.29028467725446205, -0.9569403357322089},
    {0.31368174039889113, -0.9495281805930368},
    {0.3368898533922196, -0.9415440651830209},
    {0.3598950365349876, -0.9329927988347391},
    {0.38268343236509, -0.9238795325112866},
    {0.40524131400499, -0.9142097557035306},
    {0.42755509343028214, -0.9039892931234433},
    {0.4496113296546066, -0.8932243011955153},
    {0.4713967368259976, -0.881921264348355},
    {0.49289819222978387, -0.8700869911087115},
    {0.5141027441932216, -0.8577286100002722},
    {0.5349976198870969, -0.8448535652497072},
    {0.5555702330196018, -0.8314696123025455},
    {0.5758081914178449, -0.817584813151584},
    {0.5956993044924329, -0.8032075314806453},
    {0.615231590580627, -0.7883464276266061},
    {0.6343932841636456, -0.7730104533627369},
    {0.6531728429537768, -0.7572088465064846},
    {0.6715589548470183, -0.7409511253549591},
    {0.6895405447370668, -0.724247082951467},
    {0.7071067811865474, -0.7071067811865477},
    {0.7242470829514667, -0.6895405447370672},
    {0.7409511253549589, -0.6715589548470187},
    {0.7572088465064842, -0.6531728429537771},
    {0.7730104533627367, -0.6343932841636459},
    {0.7883464276266059, -0.6152315905806274},
    {0.803207531480645, -0.5956993044924332},
    {0.8175848131515837, -0.5758081914178452},
    {0.8314696123025452, -0.5555702330196022},
    {0.844853565249707, -0.5349976198870973},
    {0.857728610000272, -0.5141027441932219},
    {0.8700869911087113, -0.49289819222978426},
    {0.8819212643483548, -0.4713967368259979},
    {0.8932243011955151, -0.449611329654607},
    {0.9039892931234431, -0.42755509343028253},
    {0.9142097557035305, -0.4052413140049904},
    {0.9238795325112865, -0.3826834323650904},
    {0.932992798834739, -0.359895036534988},
    {0.9415440651830208, -0.33688985339222},
    {0.9495281805930367, -0.3136817403988915},
    {0.9569403357322088, -0.2902846772544625},
    {0.9637760657954398, -0.2667127574748986},
    {0.970031253194544, -0.24298017990326418},
    {0.9757021300385285, -0.21910124015687016},
    {0.9807852804032303, -0.19509032201612872},
    {0.9852776423889411, -0.17096188876030177},
    {0.9891765099647809, -0.1467304744553624},
    {0.99247953459871, -0.12241067519921603},
    {0.9951847266721969, -0.0980171403295605},
    {0.9972904566786902, -0.07356456359966741},
    {0.9987954562051724, -0.04906767432741809},
    {0.9996988186962042, -0.024541228522912448},
};

/* cos and sin of 2 pi t without libm: t reduced to [-1/2, 1/2), a Taylor pair
 * on a quarter of the angle (|y| <= pi/4, error under 1e-12), then the angle
 * doubled twice. */
static void ct__cis(double t, double out[2])
{
    double r = t - floor(t + 0.5), y = r * (CT__TWO_PI * 0.25), y2 = y * y, c, sn, k;
    /* reciprocals folded at compile time (correctly rounded constants) */
    sn = y * (1.0 - y2 * (1.0 / 6.0) * (1.0 - y2 * (1.0 / 20.0) * (1.0 - y2 * (1.0 / 42.0) *
                                        (1.0 - y2 * (1.0 / 72.0) * (1.0 - y2 * (1.0 / 110.0))))));
    c = 1.0 - y2 * 0.5 * (1.0 - y2 * (1.0 / 12.0) * (1.0 - y2 * (1.0 / 30.0) *
                                       (1.0 - y2 * (1.0 / 56.0) * (1.0 - y2 * (1.0 / 90.0)))));
    k = 2.0 * sn * c; c = c * c - sn * sn; sn = k;
    k = 2.0 * sn * c; c = c * c - sn * sn; sn = k;
    out[0] = c;
    out[1] = sn;
}

/* What a stripe pattern across unit vector q needs per octave: with f the
 * point's offset in its cell, corner c (bits b) has phase t_c = f.q - b.q +
 * its own phase, so e^(2 pi i t_c) = e^(2 pi i f.q) e^(-2 pi i b.q) P_c: four
 * cis per octave instead of eight, the corners by complex products. */
typedef struct ct__stripes {
    double base[2];        /* e^(2 pi i f.q) */
    double corner[8][2];   /* e^(-2 pi i b.q) per corner */
} ct__stripes;

static void ct__cmul(const double a[2], const double b[2], double out[2])
{
    double re = a[0] * b[0] - a[1] * b[1], im = a[0] * b[1] + a[1] * b[0];
    out[0] = re;
    out[1] = im;
}

static void ct__stripes_prepare(const double f[3], const double q[3], ct__stripes *st)
{
    double e[3][2];
    int k;
    ct__cis((f[0] * q[0] + f[1] * q[1] + f[2] * q[2]) * CT__STRIPES, st->base);
    for (k = 0; k < 3; k++) ct__cis(-q[k] * CT__STRIPES, e[k]);
    st->corner[0][0] = 1.0; st->corner[0][1] = 0.0;
    st->corner[1][0] = e[0][0]; st->corner[1][1] = e[0][1];
    st->corner[2][0] = e[1][0]; st->corner[2][1] = e[1][1];
    ct__cmul(e[0], e[1], st->corner[3]);
    for (k = 0; k < 4; k++) ct__cmul(st->corner[k], e[2], st->corner[4 + k]);
}

static void ct__ground_lattice(uint32_t seed, const double P[3], const double *q, const double *qw, ct__goct *o)
{
    double x0f = floor(P[0]), y0f = floor(P[1]), z0f = floor(P[2]);
    double f[3], g1[3], c[8], u, v, w, du, dv, dw, ga[2] = {0.0, 0.0}, da[2] = {0.0, 0.0};
    uint32_t x0 = (uint32_t)(int64_t)x0f * CT__PRIME_X, y0 = (uint32_t)(int64_t)y0f * CT__PRIME_Y;
    uint32_t z0 = (uint32_t)(int64_t)z0f * CT__PRIME_Z;
    const double *g[8];
    ct__stripes sg, sd;
    int k;
    f[0] = P[0] - x0f; f[1] = P[1] - y0f; f[2] = P[2] - z0f;
    g1[0] = f[0] - 1.0; g1[1] = f[1] - 1.0; g1[2] = f[2] - 1.0;
    u = f[0] * f[0] * f[0] * (f[0] * (f[0] * 6.0 - 15.0) + 10.0);
    v = f[1] * f[1] * f[1] * (f[1] * (f[1] * 6.0 - 15.0) + 10.0);
    w = f[2] * f[2] * f[2] * (f[2] * (f[2] * 6.0 - 15.0) + 10.0);
    du = 30.0 * f[0] * f[0] * g1[0] * g1[0];
    dv = 30.0 * f[1] * f[1] * g1[1] * g1[1];
    dw = 30.0 * f[2] * f[2] * g1[2] * g1[2];
    if (q) ct__stripes_prepare(f, q, &sg);
    if (qw) ct__stripes_prepare(f, qw, &sd);
    for (k = 0; k < 8; k++) {
        double ox = (k & 1) ? g1[0] : f[0], oy = (k & 2) ? g1[1] : f[1], oz = (k & 4) ? g1[2] : f[2];
        uint32_t h = ct__gcorner(seed, (k & 1) ? x0 + CT__PRIME_X : x0, (k & 2) ? y0 + CT__PRIME_Y : y0,
                                 (k & 4) ? z0 + CT__PRIME_Z : z0);
        g[k] = ct__grad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
        c[k] = g[k][0] * ox + g[k][1] * oy + g[k][2] * oz;
        if (q || qw) {
            double wt = ((k & 1) ? u : 1.0 - u) * ((k & 2) ? v : 1.0 - v) * ((k & 4) ? w : 1.0 - w), z[2];
            if (q) {
                ct__cmul(sg.corner[k], ct__phase[h & 255u], z);
                ga[0] += wt * z[0];
                ga[1] += wt * z[1];
            }
            if (qw) {
                ct__cmul(sd.corner[k], ct__phase[(h >> 8) & 255u], z);
                da[0] += wt * z[0];
                da[1] += wt * z[1];
            }
        }
    }
    o->gc = o->gs = o->dc = o->ds = 0.0;
    if (q) {
        double z[2];
        ct__cmul(sg.base, ga, z);
        o->gc = z[0];
        o->gs = z[1];
    }
    if (qw) {
        double z[2];
        ct__cmul(sd.base, da, z);
        o->dc = z[0];
        o->ds = z[1];
    }
    o->n = ct__deriv_blend(c, g, u, v, w, du, dv, dw, o->dn);
}

/* The slope of G across the surface at dir (|dir x G|, G's tangent part) and
 * the unit vector across it, in the tangent plane (0 when flat). */
static double ct__across(const double dir[3], const double G[3], double q[3])
{
    double s;
    q[0] = dir[1] * G[2] - dir[2] * G[1];
    q[1] = dir[2] * G[0] - dir[0] * G[2];
    q[2] = dir[0] * G[1] - dir[1] * G[0];
    s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    if (s > 1e-12) {
        double inv = 1.0 / s;
        q[0] *= inv; q[1] *= inv; q[2] *= inv;
    } else {
        s = 0.0;
    }
    return s;
}

/* Dryness 0..1 and the unit east vector (crests of transverse dunes run
 * north-south under a west wind); dunes fade out near the poles, where east
 * is undefined. */
static double ct__dune_frame(const ct__ground_prep *p, const double dir[3], double moisture, double qw[3])
{
    double e2 = dir[0] * dir[0] + dir[2] * dir[2], e, dry;
    if (!(p->dunes > 0.0) || p->dune_to <= p->dune_from) return 0.0;
    dry = ct__smoothstep(CT__DRY_HI, CT__DRY_LO, moisture) * ct__smoothstep(0.01, 0.05, e2);
    if (!(dry > 0.0)) return 0.0;
    e = sqrt(e2);
    qw[0] = dir[2] / e;
    qw[1] = 0.0;
    qw[2] = -dir[0] / e;
    return dry * p->dunes;
}

/* One octave: its height (m) and its part of the gradient added to G. */
static double ct__ground_octave(const ct__ground_prep *p, int k, const double dir[3], double amp, double dune,
                                const double qw[3], double G[3])
{
    double P[3], q[3], slope, gm, rock, an, rib, drib, sh, dsh, gl, gcos, gsin, h, scale, keep;
    ct__goct o;
    int j;
    slope = ct__across(dir, G, q);
    gm = slope > 0.0 ? p->gully * slope / (slope + CT__GULLY_HALF) : 0.0;
    rock = ct__smoothstep(CT__ROCK_LO, CT__ROCK_HI, slope);
    for (j = 0; j < 3; j++) P[j] = dir[j] * p->freq[k];
    ct__ground_lattice(p->seed[k], P, gm > 0.0 ? q : NULL, dune > 0.0 ? qw : NULL, &o);
    /* Rock ribs: (1 - |n|)^2 has sharp crests and broad hollows. */
    an = o.n < 0.0 ? -o.n : o.n;
    rib = 2.0 * (1.0 - an) * (1.0 - an) - 0.67;
    drib = (o.n < 0.0 ? 4.0 : -4.0) * (1.0 - an);
    sh = o.n + rock * (rib - o.n);
    dsh = 1.0 + rock * (drib - 1.0);
    gcos = gsin = 0.0;
    if (gm > 0.0) {
        gl = sqrt(o.gc * o.gc + o.gs * o.gs + 1e-4);
        gcos = o.gc / gl;
        gsin = o.gs / gl;
    }
    keep = 1.0 - CT__DUNE_SWAP * dune;
    h = amp * keep * ((1.0 - gm) * sh + gm * gcos);
    if (dune > 0.0) {
        double dl = sqrt(o.dc * o.dc + o.ds * o.ds + 1e-4), dc = o.dc / dl, ds = o.ds / dl;
        h += amp * CT__DUNE_GAIN * dune * (dc + CT__DUNE_SKEW * 2.0 * ds * dc);
    }
    /* The gradient (m per m) the finer octaves follow: the noise's, and the
     * gullies' across q (d cos / dx = -2 pi S f sin). Dunes do not drain. */
    scale = amp * keep * p->freq[k] / p->radius_m;
    for (j = 0; j < 3; j++) G[j] += scale * (1.0 - gm) * dsh * o.dn[j];
    if (gm > 0.0)
        for (j = 0; j < 3; j++) G[j] -= scale * gm * gsin * CT__TWO_PI * CT__STRIPES * q[j];
    return h;
}

double ct__ground_relief(const ct__ground_prep *p, const double dir[3], const ct__ground_in *in)
{
    double a = in->above_m, G[3], q[3], qw[3] = {0.0, 0.0, 0.0}, steep, rough, dry, sum = 0.0, bound = 0.0;
    int k;
    if (!(a > 0.0) || p->octaves <= 0) return 0.0;
    G[0] = in->grad[0]; G[1] = in->grad[1]; G[2] = in->grad[2];
    steep = ct__across(dir, G, q);
    steep = steep / (steep + CT__STEEP_HALF);
    rough = a / (a + CT__HIGH_HALF_M);
    if (steep > rough) rough = steep;
    rough = CT__GROUND_PLAIN + (1.0 - CT__GROUND_PLAIN) * rough;
    dry = ct__dune_frame(p, dir, in->moisture, qw);
    for (k = 0; k < p->octaves; k++) {
        double amp = p->amp_m[k] * rough, dune = (k >= p->dune_from && k < p->dune_to) ? dry : 0.0;
        sum += ct__ground_octave(p, k, dir, amp, dune, qw, G);
        bound += amp * ((1.0 - CT__DUNE_SWAP * dune) * CT__SHAPE_PEAK + CT__DUNE_GAIN * dune * CT__DUNE_PEAK);
    }
    /* The bound holds by the shapes' ranges; the clamp makes it exact. */
    if (sum > bound) sum = bound;
    if (sum < -bound) sum = -bound;
    return sum * (a / (a + 2.0 * bound));
}
