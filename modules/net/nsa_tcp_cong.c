// SPDX-License-Identifier: GPL-2.0
/*
 * An out-of-tree TCP congestion control, Reno under another name, built
 * on the helpers that vmlinux exports into the tcpcong namespace. It
 * imports tcpcong, but vmlinux lists only the in-tree congestion modules,
 * so the loader refuses it: the cost Herbert Xu pointed at in 2007.
 */
#include <linux/module.h>
#include <net/tcp.h>

MODULE_IMPORT_NS(tcpcong);

static void nsa_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tcp_is_cwnd_limited(sk))
		return;
	if (tcp_in_slow_start(tp))
		acked = tcp_slow_start(tp, acked);
	if (acked)
		tcp_cong_avoid_ai(tp, tcp_snd_cwnd(tp), acked);
}

static struct tcp_congestion_ops nsa_cong __read_mostly = {
	.name		= "nsa_cong",
	.owner		= THIS_MODULE,
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= nsa_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
};

static int __init nsa_cong_init(void)
{
	return tcp_register_congestion_control(&nsa_cong);
}
module_init(nsa_cong_init);

static void __exit nsa_cong_exit(void)
{
	tcp_unregister_congestion_control(&nsa_cong);
}
module_exit(nsa_cong_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("out-of-tree congestion control using tcpcong helpers");
