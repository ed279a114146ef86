// SPDX-License-Identifier: GPL-2.0
/* NSA_RESTR: exported here, and this module says who may use it. */
#include "nsa.h"

int nsa_fn(void)
{
	return 3;
}
EXPORT_SYMBOL_NS_GPL(nsa_fn, NSA_RESTR);

int nsa_fn_nongpl(void)
{
	return 4;
}
EXPORT_SYMBOL_NS(nsa_fn_nongpl, NSA_RESTR);

MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_user);
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_user);	/* the same pair twice */
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_noimport);
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_symget);
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_symreq);
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_oldget);
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_nongpl);
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_nongpl_gplsym);
MODULE_NAMESPACE_ALLOW(NSA_RESTR, nsa_dash);	/* the file is nsa-dash.ko */
MODULE_NAMESPACE_ALLOW(NSA_RESTR, 0nsa_digit);	/* names may start with a digit */
MODULE_NAMESPACE_ALLOW(NSA_RESTR, unix);	/* predefined macros under gnu11: */
MODULE_NAMESPACE_ALLOW(NSA_RESTR, linux);	/* must stay names, not "1" */

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("exports into a restricted namespace and lists its users");
