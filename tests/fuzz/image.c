/*
 * image.c - an input image as a file path, for targets that open files.
 *
 * jet_db_open() takes a path and reads with pread(); a memfd seen through
 * /proc/self/fd/N is a regular file, so the reader runs unchanged on the
 * fuzzer's bytes without touching the disk. Where memfd_create is missing
 * one temporary file under $TMPDIR is reused (and removed at exit).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

static int image_fd = -1;
static char image_path[64];
static char tmp_path[] = "/tmp/jetodbc-fuzz-XXXXXX";
static int tmp_made;

static void remove_tmp(void)
{
    if (tmp_made)
        unlink(tmp_path);
}

static int image_open(void)
{
#ifdef MFD_CLOEXEC
    image_fd = memfd_create("jetodbc-fuzz", MFD_CLOEXEC);
    if (image_fd >= 0) {
        snprintf(image_path, sizeof image_path, "/proc/self/fd/%d", image_fd);
        if (access(image_path, R_OK) == 0)
            return 0;
        close(image_fd);
    }
#endif
    image_fd = mkstemp(tmp_path);
    if (image_fd < 0)
        return -1;
    tmp_made = 1;
    atexit(remove_tmp);
    snprintf(image_path, sizeof image_path, "%s", tmp_path);
    return 0;
}

const char *fuzz_image_path(const uint8_t *data, size_t size)
{
    if (image_fd < 0 && image_open() != 0)
        return NULL;
    if (ftruncate(image_fd, 0) != 0)
        return NULL;
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(image_fd, data + done, size - done, (off_t)done);
        if (w <= 0)
            return NULL;
        done += (size_t)w;
    }
    return image_path;
}
