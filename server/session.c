/* Sessions, cookies and CSRF (session.h). */
#include "session.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

static void random_token(char out[TP_TOKEN_LEN + 1])
{
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(out, TP_TOKEN_LEN + 1, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

static void id_hash(const char *id, char out[65])
{
    unsigned char h[32];
    crypto_generichash(h, sizeof h, (const unsigned char *)id, strlen(id), NULL, 0);
    sodium_bin2hex(out, 65, h, sizeof h);
}

int srv_session_open(tp_db *db, const char *user_id, int64_t now_ms, char id[TP_TOKEN_LEN + 1], tc_error *err)
{
    char csrf[TP_TOKEN_LEN + 1], hash[65];
    random_token(id);
    random_token(csrf);
    id_hash(id, hash);
    if (tp_session_create(db, hash, user_id, csrf, now_ms, now_ms + (int64_t)SRV_SESSION_DAYS * 86400000, err))
        return -1;
    /* the oldest go past SRV_SESSIONS_PER_USER (a login loop cannot fill the table) */
    return tp_sessions_trim(db, user_id, SRV_SESSIONS_PER_USER, err) < 0 ? -1 : 0;
}

/* The value of the session cookie in a Cookie header ("a=1; tc_session=X"). */
static int cookie_value(const char *h, char id[TP_TOKEN_LEN + 1])
{
    size_t name_len = strlen(SRV_SESSION_COOKIE);
    id[0] = '\0';
    while (h && *h) {
        while (*h == ' ' || *h == ';')
            h++;
        size_t n = strcspn(h, ";");
        if (n > name_len && !strncmp(h, SRV_SESSION_COOKIE, name_len) && h[name_len] == '=') {
            const char *v = h + name_len + 1;
            size_t vl = n - name_len - 1;
            if (vl != TP_TOKEN_LEN)
                return 0;
            for (size_t i = 0; i < vl; i++) {
                char c = v[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_'))
                    return 0;
            }
            memcpy(id, v, vl);
            id[vl] = '\0';
            return 1;
        }
        h += n;
    }
    return 0;
}

int srv_session_find(tp_db *db, const char *cookie_header, int64_t now_ms, tp_session *out,
                     char id[TP_TOKEN_LEN + 1], tc_error *err)
{
    if (!cookie_value(cookie_header, id))
        return 0;
    char hash[65];
    id_hash(id, hash);
    return tp_session_get(db, hash, now_ms, out, err);
}

int srv_session_close(tp_db *db, const char *id, tc_error *err)
{
    char hash[65];
    id_hash(id, hash);
    return tp_session_delete(db, hash, err) < 0 ? -1 : 0;
}

void srv_session_cookie(char *out, size_t n, const char *id, int secure)
{
    snprintf(out, n, "%s=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Lax%s", SRV_SESSION_COOKIE, id ? id : "",
             id ? SRV_SESSION_DAYS * 86400 : 0, secure ? "; Secure" : "");
}

void srv_session_hint(char *out, size_t n, const char *session_cookie)
{
    int ends = strstr(session_cookie, "Max-Age=0;") != NULL;
    snprintf(out, n, "tc_in=%s; Path=/; Max-Age=%d; SameSite=Lax%s", ends ? "" : "1", ends ? 0 : SRV_SESSION_DAYS * 86400,
             strstr(session_cookie, "; Secure") ? "; Secure" : "");
}

int srv_csrf_ok(const tp_session *s, const char *token)
{
    size_t n = strlen(s->csrf);
    return token && n == TP_TOKEN_LEN && strlen(token) == n && sodium_memcmp(s->csrf, token, n) == 0;
}

int srv_same_origin(const char *origin, const char *host, const char *fetch_site, char *msg, size_t n)
{
    /* "Origin: null" comes from sandboxed frames, data: and file: pages
     * and cross-origin redirects: never from the hub's own pages, whose
     * Referrer-Policy (same-origin) lets a browser send their origin. It
     * is refused as any foreign origin, with or without Sec-Fetch-Site
     * (older browsers send none). */
    if (origin && *origin) {
        const char *auth = !strncmp(origin, "https://", 8) ? origin + 8 : !strncmp(origin, "http://", 7) ? origin + 7 : NULL;
        if (!auth || !host || strcmp(auth, host)) {
            snprintf(msg, n, "a request from another site (Origin %.100s) may not change anything here", origin);
            return -1;
        }
        return 0;
    }
    if (fetch_site && strcmp(fetch_site, "same-origin") && strcmp(fetch_site, "none")) {
        snprintf(msg, n, "a request from another site (Sec-Fetch-Site: %.40s) may not change anything here",
                 fetch_site);
        return -1;
    }
    return 0;
}

int srv_session_change_check(const tp_session *s, int stale, const char *csrf, const char *origin, const char *host,
                             const char *fetch_site, const char *login_for, char *msg, size_t n)
{
    if (srv_same_origin(origin, host, fetch_site, msg, n))
        return 403;
    if (!s) {
        snprintf(msg, n, "%s", stale ? "your session has ended or was logged out: log in again" : login_for);
        return 401;
    }
    if (!srv_csrf_ok(s, csrf)) {
        snprintf(msg, n, "%s",
                 csrf ? "the CSRF token does not match your session: reload the page"
                      : "no CSRF token: forms send it as the field csrf, scripts as the X-CSRF-Token header (use "
                        "the page's buttons)");
        return 403;
    }
    return 0;
}
