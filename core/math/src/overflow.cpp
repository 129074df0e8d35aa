#include "fx/overflow.h"

#include <cstdio>
#include <cstdlib>

namespace fx {
namespace {

void default_handler(const char* operation) {
    std::fprintf(stderr, "fx: arithmetic overflow in %s\n", operation);
    std::fflush(stderr);
    std::abort();
}

// The only mutable global of the numeric layer. It never feeds a result: it only decides what
// happens after an overflow has been detected.
OverflowHandler g_handler = &default_handler;

} // namespace

OverflowHandler set_overflow_handler(OverflowHandler handler) noexcept {
    const OverflowHandler previous = g_handler;
    g_handler = handler != nullptr ? handler : &default_handler;
    return previous;
}

void report_overflow(const char* operation) {
    g_handler(operation);
}

} // namespace fx
