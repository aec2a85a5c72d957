/* The most common passwords, refused by srv_password_check (accounts.c):
 * about 330 of at least 8 characters, in common_passwords.c. */
#ifndef SRV_COMMON_PASSWORDS_H
#define SRV_COMMON_PASSWORDS_H

/* 1 when password is on the list (compared in any case), else 0. */
int srv_password_common(const char *password);

#endif
