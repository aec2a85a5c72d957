/* The parts the people pages (people.c) share: the form parser for
 * application/x-www-form-urlencoded bodies, the three kinds of answer (a
 * whole page, a redirect, JSON), the small pieces of HTML every form page
 * shows (who is signed in, an error line, the CSRF field) and the two
 * credential pages, sign-up and log-in; also the answer type and the form
 * limits of people.h's API. Leaf module: it knows requests and HTML, not
 * the stores. */
#ifndef SRV_PEOPLE_FORMS_H
#define SRV_PEOPLE_FORMS_H

#include "buf.h"
#include "route.h"
#include "session.h"

#include <jansson.h>

#define SRV_PEOPLE_MAX_BODY 4096
#define SRV_PEOPLE_MAX_FIELDS 12

/// The people pages' answer: a response, and the cookie and redirect it
/// sets, if any.
typedef struct srv_people_response {
    srv_response r;
    char set_cookie[160]; /* "" or a Set-Cookie value */
    char location[200];   /* "" or where a 303 sends the browser */
} srv_people_response;

/// A parsed form: at most SRV_PEOPLE_MAX_FIELDS fields, each name once.
typedef struct srv_form {
    int n;
    char name[SRV_PEOPLE_MAX_FIELDS][24];
    char *value[SRV_PEOPLE_MAX_FIELDS];
    char store[SRV_PEOPLE_MAX_BODY + SRV_PEOPLE_MAX_FIELDS];
} srv_form;

/* Parses a form body into f: 0, or -1 with a message naming the problem
 * (too long, too many fields, a malformed name or escape, text that is not
 * UTF-8, a field given twice). */
int srv_form_parse(const char *body, size_t len, srv_form *f, char *msg, size_t n);
/* The value of the field `name`, or NULL. */
const char *srv_form_field(const srv_form *f, const char *name);

/* out answers with the hub's document around main_html (taken), with
 * `status`, not cached. */
void srv_people_page(srv_people_response *out, int status, const char *kind, const char *title, srv_buf *main_html);
/* out answers 303 to `to`. */
void srv_people_redirect(srv_people_response *out, const char *to);
/* out answers v (its reference taken) as JSON with `status`. */
void srv_people_json(srv_people_response *out, int status, json_t *v);
/* out answers JSON text (taken) with `status`; NULL text answers 500 with
 * the message `fail`. */
void srv_people_json_text(srv_people_response *out, int status, char *text, size_t len, const char *fail);

/* An error line (nothing for NULL or ""), escaped. */
void srv_people_error_line(srv_buf *b, const char *msg);
/* "Signed in as ..." with the account link, or the log-in and sign-up links. */
void srv_people_who_line(srv_buf *b, const tp_session *s);
/* The hidden CSRF field of s's forms. */
void srv_people_csrf_input(srv_buf *b, const tp_session *s);

/* The sign-up page (signup != 0) or the log-in page, with the name typed
 * and an error message (both may be NULL), answered with `status`. */
void srv_people_credentials_page(srv_people_response *out, int status, int signup, const char *name,
                                 const char *msg, const tp_session *s);

#endif
