// Linux declarations that Swift's Glibc module does not export: epoll, eventfd, accept4,
// pthread_setname_np.
#pragma once
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <pthread.h>

// glibc declares accept4 only under _GNU_SOURCE, which Swift's Glibc module is not built with.
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// Also _GNU_SOURCE only: a thread's name, as `top -H`, `ps -L` and `perf` show it.
int pthread_setname_np(pthread_t thread, const char *name);
