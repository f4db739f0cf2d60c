// Linux declarations that Swift's Glibc module does not export: epoll, eventfd, accept4,
// and malloc.h (the heap in use, for the tests that state a memory figure).
#pragma once
#include <malloc.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// glibc declares accept4 only under _GNU_SOURCE, which Swift's Glibc module is not built with.
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
