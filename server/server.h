/* topochess serve: the hub's HTTP server (libmicrohttpd). */
#ifndef SRV_SERVER_H
#define SRV_SERVER_H

/// How to serve; zero or NULL fields take the defaults below.
typedef struct srv_options {
    const char *host;       /* address to listen on (default 127.0.0.1) */
    int port;               /* default 8080; 0 picks a free port */
    const char *pages_dir;  /* variant pages (default variants/) */
    const char *static_dir; /* built front end (default web/dist/) */
    int threads;            /* HTTP threads (default: the number of cores, at most 8) */
    int timeout;            /* seconds a connection may stay idle (default 10) */
    int head_timeout;       /* seconds to send a request's head, however slowly (default 10) */
    int body_timeout;       /* seconds to send a request's body after its head (default 30) */
    int max_connections;    /* open connections at once (default 1000) */
    int max_per_ip;         /* open connections from one address (default 128) */
    int log;                /* one line per request on stderr */
    const char *db;         /* hosted games: SQLite file or postgresql:// URL (default topochess.db) */
    int no_games;           /* serve the pages only (no store) */
    int engine_threads;     /* engine workers for engine games (default 1) */
    int create_per_minute;  /* games one client address may create a minute (default 60) */
    const char *cors;       /* an origin the API answers cross-origin, or NULL */
    int secure_cookies;     /* mark the session cookie Secure (served over HTTPS) */
    const char *trusted_proxy; /* address whose X-Forwarded-Proto/-For are believed, or NULL */
    long long day_ms;       /* a correspondence day for games made now (default 86400000; tests shorten it) */
    const char *tournaments;   /* the operator's schedule of tournaments, or NULL */
    int analysis_threads;   /* workers analysing finished games (default 1; < 0: none) */
    long long analysis_nodes; /* their nodes a position (default server/analysis.h's) */
} srv_options;

/* Loads the site, listens, prints one line "topochess serve: http://HOST:PORT/
 * ..." on stdout and serves until SIGINT or SIGTERM; SIGHUP reads the pages
 * again. Returns the exit
 * status (1 with a message on stderr if it cannot start). */
int srv_serve(const srv_options *o);

#endif
