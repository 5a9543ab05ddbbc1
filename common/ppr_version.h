#ifndef PPR_VERSION_H
#define PPR_VERSION_H
#define PPR_VERSION "0.1.0"
#endif
