/*
 * fixture_walk.h - call a function for every .mdb/.accdb file under a
 * folder (the shared public fixtures), depth-first in readdir order, at
 * most 5 folders deep. For tests that check a rule over every fixture.
 */
#ifndef JET_TESTS_FIXTURE_WALK_H
#define JET_TESTS_FIXTURE_WALK_H

#include <dirent.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/** Call fn(path) for each database file under dir (depth: pass 0). */
static inline void jet_fixture_walk(const char *dir, int depth,
                                    void (*fn)(const char *path))
{
    DIR *d = opendir(dir);
    struct dirent *de;
    if (!d)
        return;
    while (depth < 5 && (de = readdir(d)) != NULL) {
        char path[1024];
        struct stat sb;
        size_t n = strlen(de->d_name), dl = strlen(dir);
        if (de->d_name[0] == '.' || dl + n + 2 > sizeof path)
            continue;
        memcpy(path, dir, dl);
        path[dl] = '/';
        memcpy(path + dl + 1, de->d_name, n + 1);
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode))
            jet_fixture_walk(path, depth + 1, fn);
        else if ((n > 4 && strcasecmp(de->d_name + n - 4, ".mdb") == 0) ||
                 (n > 6 && strcasecmp(de->d_name + n - 6, ".accdb") == 0))
            fn(path);
    }
    closedir(d);
}

#endif
