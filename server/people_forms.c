/* The people pages' shared parts (people_forms.h): the form parser, the
 * answers, the pieces of HTML of every form page, and the sign-up and
 * log-in pages. */
#include "people_forms.h"

#include "accounts.h"
#include "passwords.h"
#include "render.h"
#include "respond.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const TYPE_HTML = "text/html; charset=utf-8";
static const char *const TYPE_JSON = "application/json; charset=utf-8";

/* ---------------------------------------------------------------- forms */

int srv_form_parse(const char *body, size_t len, srv_form *f, char *msg, size_t n)
{
    f->n = 0;
    size_t used = 0, i = 0;
    if (len > SRV_PEOPLE_MAX_BODY) {
        snprintf(msg, n, "a form has at most %d bytes", SRV_PEOPLE_MAX_BODY);
        return -1;
    }
    while (i < len) {
        size_t end = i;
        while (end < len && body[end] != '&')
            end++;
        if (end > i) {
            size_t eq = i;
            while (eq < end && body[eq] != '=')
                eq++;
            if (f->n == SRV_PEOPLE_MAX_FIELDS) {
                snprintf(msg, n, "a form has at most %d fields", SRV_PEOPLE_MAX_FIELDS);
                return -1;
            }
            char name[3 * 24];
            if (eq - i >= 24 || srv_url_decode(body + i, eq - i, 1, name) < 0) {
                snprintf(msg, n, "a malformed form field name");
                return -1;
            }
            char *v = f->store + used;
            long vl = eq < end ? srv_url_decode(body + eq + 1, end - eq - 1, 1, v) : 0;
            if (vl < 0) {
                snprintf(msg, n, "the form field '%.23s' is malformed (a bad %%-escape or a control character)", name);
                return -1;
            }
            v[vl] = '\0';
            if (srv_utf8_invalid(v, (size_t)vl) >= 0) {
                snprintf(msg, n, "the form field '%.23s' is not UTF-8 text", name);
                return -1;
            }
            for (int k = 0; k < f->n; k++)
                if (!strcmp(f->name[k], name)) {
                    snprintf(msg, n, "the form field '%.23s' is given twice", name);
                    return -1;
                }
            snprintf(f->name[f->n], sizeof f->name[0], "%.23s", name);
            f->value[f->n++] = v;
            used += (size_t)vl + 1;
        }
        i = end + 1;
    }
    return 0;
}

const char *srv_form_field(const srv_form *f, const char *name)
{
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->name[i], name))
            return f->value[i];
    return NULL;
}

/* ---------------------------------------------------------------- answers */

void srv_people_page(srv_people_response *out, int status, const char *kind, const char *title, srv_buf *main_html)
{
    char *m = srv_buf_take(main_html, NULL);
    srv_doc d = {kind, title, m ? m : "", NULL, NULL};
    size_t len = 0;
    char *doc = m ? srv_render_document(&d, &len) : NULL;
    free(m);
    srv_route_page(&out->r, doc, len);
    if (doc)
        out->r.status = status;
    out->r.cache = "no-store";
}

void srv_people_redirect(srv_people_response *out, const char *to)
{
    out->r.status = 303;
    out->r.type = TYPE_HTML;
    out->r.body = "";
    out->r.len = 0;
    out->r.cache = "no-store";
    snprintf(out->location, sizeof out->location, "%s", to);
}

void srv_people_json(srv_people_response *out, int status, json_t *v)
{
    size_t len = 0;
    char *text = srv_json_text(v, &len);
    srv_people_json_text(out, status, text, len, "out of memory");
}

void srv_people_json_text(srv_people_response *out, int status, char *text, size_t len, const char *fail)
{
    if (!text) {
        srv_route_error(&out->r, 500, 1, "%s", fail);
        return;
    }
    out->r.status = status;
    out->r.type = TYPE_JSON;
    out->r.owned = text;
    out->r.body = text;
    out->r.len = len;
    out->r.cache = "no-store";
}

void srv_people_error_line(srv_buf *b, const char *msg)
{
    if (!msg || !msg[0])
        return;
    srv_buf_str(b, "<p class=\"tc-error\" role=\"alert\">");
    char *clean = srv_utf8_clean(msg, strlen(msg));
    srv_buf_html(b, clean ? clean : "");
    free(clean);
    srv_buf_str(b, "</p>\n");
}

void srv_people_who_line(srv_buf *b, const tp_session *s)
{
    srv_buf_str(b, "<p class=\"tc-who\">");
    if (s) {
        srv_buf_str(b, "Signed in as <a href=\"/@/");
        srv_buf_html(b, s->name);
        srv_buf_str(b, "\">");
        srv_buf_html(b, s->name);
        srv_buf_str(b, "</a> · <a href=\"/account\">account</a>");
    } else {
        srv_buf_str(b, "<a href=\"/login\">Log in</a> · <a href=\"/signup\">Sign up</a>");
    }
    srv_buf_str(b, "</p>\n");
}

static void name_input(srv_buf *b, const char *value, const char *autocomplete)
{
    srv_buf_printf(b,
                   "<label>User name <input name=\"name\" autocomplete=\"%s\" required minlength=\"%d\" "
                   "maxlength=\"%d\" autocapitalize=\"none\" spellcheck=\"false\" value=\"",
                   autocomplete, SRV_NAME_MIN, TP_NAME_MAX);
    char *clean = value ? srv_utf8_clean(value, strnlen(value, 64)) : NULL;
    srv_buf_html(b, clean ? clean : "");
    free(clean);
    srv_buf_str(b, "\"></label>\n");
}

/* The fields and notes of the two credential pages. */
void srv_people_credentials_page(srv_people_response *out, int status, int signup, const char *name,
                                 const char *msg, const tp_session *s)
{
    const char *title = signup ? "Sign up" : "Log in";
    srv_buf b = {0};
    srv_buf_printf(&b, "<section class=\"tc-people tc-%s\">\n<h1>%s</h1>\n", signup ? "signup" : "login", title);
    srv_people_who_line(&b, s);
    srv_people_error_line(&b, msg);
    srv_buf_printf(&b, "<form method=\"post\" action=\"/%s\" class=\"tc-form\">\n", signup ? "signup" : "login");
    name_input(&b, name, "username");
    if (signup) {
        srv_buf_printf(&b,
                       "<label>Password <input type=\"password\" name=\"password\" autocomplete=\"new-password\" "
                       "required minlength=\"%d\" maxlength=\"%d\"></label>\n"
                       "<label>Password again <input type=\"password\" name=\"password2\" "
                       "autocomplete=\"new-password\" required minlength=\"%d\" maxlength=\"%d\"></label>\n"
                       "<button type=\"submit\">Sign up</button>\n</form>\n",
                       SRV_PASSWORD_MIN, SRV_PASSWORD_MAX, SRV_PASSWORD_MIN, SRV_PASSWORD_MAX);
        srv_buf_printf(&b,
                       "<p class=\"tc-note\"><strong>No e-mail address is asked for:</strong> the site sends no "
                       "mail, so a forgotten password cannot be reset. Keep it in a password manager.</p>\n"
                       "<ul class=\"tc-rules\"><li>User names: %d to %d letters (a-z, A-Z), digits, '_' and '-', "
                       "starting with a letter; the same in any case (Alice and alice are one name); names of the "
                       "site (admin, api, ...) are reserved.</li><li>Passwords: %d to %d characters, not the user "
                       "name.</li><li>Playing by link needs no account.</li></ul>\n"
                       "<p>Already signed up? <a href=\"/login\">Log in</a>.</p>\n</section>",
                       SRV_NAME_MIN, TP_NAME_MAX, SRV_PASSWORD_MIN, SRV_PASSWORD_MAX);
    } else {
        srv_buf_printf(&b,
                       "<label>Password <input type=\"password\" name=\"password\" "
                       "autocomplete=\"current-password\" required maxlength=\"%d\"></label>\n"
                       "<button type=\"submit\">Log in</button>\n</form>\n"
                       "<p>No account yet? <a href=\"/signup\">Sign up</a> (no e-mail needed).</p>\n</section>",
                       SRV_PASSWORD_MAX);
    }
    srv_people_page(out, status, signup ? "signup" : "login", title, &b);
}

void srv_people_csrf_input(srv_buf *b, const tp_session *s)
{
    srv_buf_str(b, "<input type=\"hidden\" name=\"csrf\" value=\"");
    srv_buf_html(b, s->csrf);
    srv_buf_str(b, "\">");
}

