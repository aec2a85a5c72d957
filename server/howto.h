/* The generated parts of a variant page: "How this board works" from the
 * variant's tables, and its relatives (same size, one join changed). */
#ifndef SRV_HOWTO_H
#define SRV_HOWTO_H

#include "buf.h"
#include "site.h"
#include "topochess_report.h"

/* Both heap HTML, NULL if memory runs out. */
char *srv_render_howto(const srv_site *s, const srv_page *p);
char *srv_render_relatives(const srv_site *s, const srv_page *p);

#endif
