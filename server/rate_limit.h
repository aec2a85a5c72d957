/* Rate limits for creating games: a bucket of per_minute tokens per
 * client address, refilled continuously; a create or a rematch takes one.
 *
 * Limits: keyed by the whole address (text; behind --trusted-proxy, the
 * address it names: srv_client_addr) in a chained table, so two
 * addresses never share a bucket; at most SRV_RATE_CLIENTS buckets: when
 * the table is full, the buckets that have refilled (idle clients) are
 * swept, and a new client beyond that is refused.
 *
 * Calls respond.h (the client's address) and game_state.h (the time). */
#ifndef SRV_RATE_LIMIT_H
#define SRV_RATE_LIMIT_H

#include <microhttpd.h>

#define SRV_RATE_CLIENTS 65536

typedef struct srv_rate srv_rate;

/* trusted_proxy: see srv_client_addr (NULL: every peer is a client). */
srv_rate *srv_rate_new(double per_minute, const char *trusted_proxy);
void srv_rate_free(srv_rate *R);
/* Takes a token for c's address: 1, or 0 when its bucket is empty. */
int srv_rate_take(srv_rate *R, struct MHD_Connection *c);
/* The same for a key of the caller's (an address it resolved; at most 47
 * bytes are told apart). */
int srv_rate_take_key(srv_rate *R, const char *key);

#endif
