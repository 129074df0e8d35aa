# Native x86-64 Linux, GCC: the reference build (what scripts/test.sh builds as build/).
TARGET_GOLDEN=x86_64-linux
