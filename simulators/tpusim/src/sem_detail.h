#pragma once
// The parsed form of a .sem program and its expansion into one flat list of
// concrete instructions per device.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tpusim/semaphores.h"

namespace tpusim::semdetail {

struct Pos {
    int line = 0, column = 0;
};
// Throws InputError("line L, column C: what").
[[noreturn]] void fail(Pos at, const std::string& what);

// One token of a .sem line; `#` ends the line.
struct Token {
    enum Type { ident, number, symbol, end } type = end;
    std::string text;
    double number_value = 0;
    bool integral = true;
    Pos pos;
};
// The tokens of one line, ending with a Token::end at the line's end.
std::vector<Token> lex(std::string_view line, int line_no);

enum class Op { num, var, add, sub, mul, div, mod, neg, eq, ne, lt, le, gt, ge, land, lor, lnot };
struct Expr {
    Op op = Op::num;
    std::int64_t value = 0;
    std::string name;  // Op::var
    Pos pos;
    std::vector<Expr> args;
    int height = 1;  // longest path to a leaf: evaluation recurses this deep
};

// A buffer or semaphore named in a statement: `out`, `recv[s]`.
struct Ref {
    int decl = -1;  // index of its declaration statement
    bool indexed = false;
    Expr index;
    Pos pos;
};

enum class StmtKind {
    devices,
    buffer,
    dma_sem,
    sem,  // declarations
    local_copy,
    remote_copy,
    wait_dma,
    signal,
    wait,
    compute,
    barrier,
    for_loop,
    if_block,
    else_block,
    end_block
};

struct Statement {
    StmtKind kind = StmtKind::barrier;
    Pos pos;
    // Declarations: name, array length (when `array`), buffer size in bytes.
    std::string name;
    bool array = false;
    Expr count, size;
    // Operations.
    Ref src, dst;   // copies
    Ref sem, sem2;  // local_copy: sem; remote_copy: send, recv; waits and signals: sem
    bool has_bytes = false;
    Expr bytes;  // copies: explicit size; wait_dma / signal / wait: the amount
    bool amount_is_buffer = false;
    Ref amount_buffer;  // wait_dma S BUF
    bool has_device = false;
    Expr device;            // remote_copy / signal: `to DEV`
    double duration_s = 0;  // compute
    std::vector<Ref> reads, writes;
    // Blocks: loop variable and bounds, condition, and the matching else/end.
    std::string var;
    Expr lo, hi, cond;
    std::size_t match = 0;
};

struct Source {
    std::vector<Statement> statements;
};

// Rebuilds block matching after an edit; throws InputError if unbalanced.
void match_blocks(std::vector<Statement>& statements);

// One concrete instruction of one device.
struct Instr {
    StmtKind kind = StmtKind::barrier;
    int line = 0;
    int src = -1, dst = -1;   // flat buffer ids
    int sem = -1, sem2 = -1;  // flat semaphore ids
    int target = -1;          // device for remote_copy / signal
    std::int64_t amount = 0;  // bytes of a copy or wait_dma; value of signal / wait
    double duration_s = 0;
    std::vector<int> reads, writes;
    std::string text;  // "remote_copy out[3] -> out[3] to 1 send send recv recv[0]"
};

struct Layout {
    std::vector<std::string> buffer_names;  // flat: "x", "out[0]", ...
    std::vector<std::int64_t> buffer_bytes;
    std::vector<std::string> sem_names;
    std::vector<bool> sem_is_dma;
};

struct Expanded {
    int devices = 0;
    Layout layout;
    std::vector<std::vector<Instr>> code;  // per device
};

Expanded expand(const Source& source, int devices);

}  // namespace tpusim::semdetail
