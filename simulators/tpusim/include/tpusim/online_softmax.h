#pragma once
// The online softmax of flash attention, stepped one K/V block at a time in
// double precision (the unnormalized-accumulator form [FA-TPU][FA-PAPER]):
//
//   S     = scale * Q_i K_j^T                (one block_q x block_k tile)
//   m_new = max(m, rowmax(S))
//   P     = exp(S - m_new)
//   alpha = exp(m - m_new)                    (rescales the old state)
//   l     = alpha * l + rowsum(P)
//   acc   = alpha * acc + P V_j
//   and after the last block  O = acc / l.
//
// After every step the state (m, l, acc) of every query row is readable,
// with the alpha each row used. Only one tile of scores exists at a time:
// the full score matrix is never stored.
#include <cstdint>
#include <vector>

namespace tpusim {

struct OnlineSoftmaxProblem {
    std::int64_t seq_q = 0;
    std::int64_t seq_kv = 0;
    std::int64_t head_dim = 0;
    std::int64_t block_q = 0;
    std::int64_t block_k = 0;
    bool causal = false;    // row r sees keys 0..r
    double scale = 0;       // 0: 1 / sqrt(head_dim)
    std::vector<double> q;  // seq_q x head_dim, row-major
    std::vector<double> k;  // seq_kv x head_dim
    std::vector<double> v;  // seq_kv x head_dim
};

// Q, K and V filled with reproducible values in [-1, 1) from `seed`.
OnlineSoftmaxProblem random_attention_problem(std::int64_t seq_q, std::int64_t seq_kv, std::int64_t head_dim,
                                              std::int64_t block_q, std::int64_t block_k, bool causal,
                                              std::uint64_t seed);

class OnlineSoftmaxStepper {
public:
    // Throws InputError for sizes below 1, blocks that do not divide the
    // sequences, or Q/K/V of the wrong length.
    explicit OnlineSoftmaxStepper(OnlineSoftmaxProblem problem);

    std::int64_t kv_blocks() const { return kv_blocks_; }
    std::int64_t blocks_done() const { return done_; }
    bool finished() const { return done_ == kv_blocks_; }

    // Folds the next K/V block into every query row's state. Returns false,
    // changing nothing, once every block is in.
    bool step();
    void run();    // every remaining block
    void reset();  // back to m = -inf, l = 0, acc = 0

    // State after the last step: one entry per query row (acc: row-major,
    // head_dim per row). Rows that have seen no visible key keep m = -inf.
    const std::vector<double>& m() const { return m_; }
    const std::vector<double>& l() const { return l_; }
    const std::vector<double>& acc() const { return acc_; }
    // exp(m_old - m_new) each row applied in the last step: 0 on a row's
    // first visible block, 1 where the max did not move or the row saw no
    // visible key in the block.
    const std::vector<double>& alpha() const { return alpha_; }
    // The probabilities tile P of the last query block in the last step
    // (block_q x block_k, masked entries 0), and which tile it was.
    const std::vector<double>& last_tile() const { return tile_; }
    std::int64_t last_tile_q_block() const { return tile_qi_; }
    std::int64_t last_tile_kv_block() const { return tile_kj_; }
    std::int64_t tiles_computed() const { return tiles_computed_; }
    std::int64_t tiles_skipped() const { return tiles_skipped_; }

    // acc / l per row, the attention output so far (rows with l = 0 give 0).
    std::vector<double> output() const;

    const OnlineSoftmaxProblem& problem() const { return p_; }

private:
    void fold_tile(std::int64_t qi, std::int64_t kj);

    OnlineSoftmaxProblem p_;
    std::vector<double> kt_;  // K transposed: head_dim x seq_kv, for contiguous inner loops
    std::int64_t kv_blocks_ = 0;
    std::int64_t done_ = 0;
    std::vector<double> m_, l_, acc_, alpha_, tile_;
    std::int64_t tile_qi_ = -1, tile_kj_ = -1;
    std::int64_t tiles_computed_ = 0, tiles_skipped_ = 0;
};

// softmax(scale * Q K^T) V computed row by row with the whole row of scores
// at once: the reference the stepper is checked against.
std::vector<double> attention_reference(const OnlineSoftmaxProblem& problem);

}  // namespace tpusim
