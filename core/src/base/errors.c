/* errors.c - result codes and messages (from the CT_ERRORS table in ct.h)
 * and the helper that writes a message into the caller's buffer. */
#include "base/ct_base.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const ct__result_names[] = {
#define CT__NAME(code, msg) #code,
    CT_ERRORS(CT__NAME)
#undef CT__NAME
};

static const char *const ct__result_messages[] = {
#define CT__MSG(code, msg) msg,
    CT_ERRORS(CT__MSG)
#undef CT__MSG
};

const char *ct_result_name(ct_result r)
{
    if ((int)r < 0 || (int)r >= (int)CT_RESULT_COUNT) return "?";
    return ct__result_names[r];
}

const char *ct_result_message(ct_result r)
{
    if ((int)r < 0 || (int)r >= (int)CT_RESULT_COUNT) return "?";
    return ct__result_messages[r];
}

ct_result ct__fail(char *err, size_t errlen, ct_result code, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}
