#pragma once
// MLIR text as tokens. Types and attributes with angle brackets
// (tensor<8x16xf32>, dense<...>, #stablehlo.dot<...>) stay one token each.
#include <string>
#include <string_view>
#include <vector>

#include "ir_text.h"

namespace tpusim::ir::detail {

enum class Tok {
    value,   // %0, %arg0, %0#1
    symbol,  // @main
    hash,    // #loc3, #stablehlo.dot<...>
    caret,   // ^bb0
    string,  // "stablehlo.add" (text keeps the quotes)
    number,  // 1, -2, 1.5e+00, 0x7F800000
    word,    // stablehlo.add, tensor<8xf32>, dense<1.0>, x, loc
    punct,   // ( ) [ ] { } , : = -> < > ? * +
    end,
};

struct Token {
    Tok kind = Tok::end;
    std::string_view text;
    Position position;
    std::size_t offset = 0;
    bool newline_before = false;  // first token on its line
};

// Throws ParseError on an unterminated string or bracket, or a stray byte.
std::vector<Token> lex_mlir(std::string_view text);

// tensor<8x16xf32> -> f32[8,16]; tensor<f32> -> f32[]; tuple<...> -> a tuple.
// Throws ParseError (at `token`) for anything that is not a tensor type.
TensorType mlir_type(const Token& token);
bool is_mlir_type(const Token& token);

}  // namespace tpusim::ir::detail
