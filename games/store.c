/* The store interface: picks the backend by the URL's form and forwards. */
#include "store.h"

#include <string.h>

static bool is_pg(const char *url)
{
    return !strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11);
}

tg_store *tg_store_open(const char *url, tc_error *err)
{
    if (!url || !url[0]) {
        snprintf(err->msg, sizeof err->msg, "--db: empty");
        return NULL;
    }
    return is_pg(url) ? tg_store_open_pg(url, err) : tg_store_open_sqlite(url, err);
}

void tg_store_close(tg_store *s)
{
    if (s)
        s->ops->close(s);
}

const char *tg_store_kind(const tg_store *s) { return s->ops->kind; }
int tg_store_schema_version(const tg_store *s) { return s->schema_version; }

tg_code tg_store_insert(tg_store *s, const tg_game *g, tc_error *err) { return s->ops->insert(s, g, err); }

tg_code tg_store_load(tg_store *s, const char *id, tg_game *g, tc_error *err)
{
    if (!id || strlen(id) != TG_ID_LEN || strspn(id, "0123456789abcdef") != TG_ID_LEN) {
        snprintf(err->msg, sizeof err->msg, "no game '%.40s' (ids are %d hex digits)", id ? id : "", TG_ID_LEN);
        return TG_ENOTFOUND;
    }
    return s->ops->load(s, id, g, err);
}

tg_code tg_store_save(tg_store *s, const tg_game *g, int64_t expected_version, int stored_moves, tc_error *err)
{
    return s->ops->save(s, g, expected_version, stored_moves, err);
}

int tg_store_list(tg_store *s, const char *variant, int max, tg_game_summary *out, tc_error *err)
{
    if (max <= 0)
        return 0;
    tg_archive_query q = {NULL, variant, NULL, NULL, 0};
    return tg_store_archive(s, &q, max, out, err);
}

int tg_store_archive(tg_store *s, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err)
{
    if (max <= 0)
        return 0;
    return s->ops->archive(s, q, max, out, err);
}

tg_code tg_store_announce(tg_store *s, const char *id, tc_error *err)
{
    return s->ops->announce ? s->ops->announce(s, id, err) : TG_OK;
}

int tg_store_pending(tg_store *s, const char *after, int64_t now_ms, int max, tg_game_summary *out, tc_error *err)
{
    if (max <= 0)
        return 0;
    return s->ops->pending(s, after ? after : "", now_ms, max, out, err);
}

tg_listener *tg_store_listen(const char *url, tg_change_fn fn, void *ctx, tc_error *err)
{
    return tg_store_listen_on(url, "tg_games", fn, ctx, err);
}

tg_listener *tg_store_listen_on(const char *url, const char *channel, tg_change_fn fn, void *ctx, tc_error *err)
{
    if (!url || !is_pg(url))
        return NULL;
    return tg_store_listen_pg(url, channel, fn, ctx, err);
}
