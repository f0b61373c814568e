#pragma once
// Every store call the window makes goes through storeGuarded: a
// StoreError (a lock, a full disk, a missing table) becomes the sentence
// StoreHealth shows, and the caller gets an empty answer (or `fallback`),
// as if nothing had been asked. Nothing else may end the app on the
// store's account.
#include "storehealth.h"

#include <progress/store_error.h>

#include <type_traits>
#include <utility>

template <class Call, class Result = std::invoke_result_t<Call>>
Result storeGuardedOr(Result fallback, Call &&call)
{
    try {
        return std::forward<Call>(call)();
    } catch (const progress::StoreError &error) {
        StoreHealth::instance()->report(error);
        return fallback;
    }
}

template <class Call>
std::invoke_result_t<Call> storeGuarded(Call &&call)
{
    using Result = std::invoke_result_t<Call>;
    try {
        return std::forward<Call>(call)();
    } catch (const progress::StoreError &error) {
        StoreHealth::instance()->report(error);
        if constexpr (!std::is_void_v<Result>)
            return Result{};
    }
}
