// The figures themselves. Sources are tags; SOURCES.md at the top of the
// repository is their key.
//
// Policy where sources disagree: take JAX's tpu_info table [JAX-INFO] for
// HBM bandwidth, peak rates, VMEM and core counts. It is the table Pallas
// itself reads, it covers all five chips from one place, and for v5e it
// gives 1.97e14 FLOP/s and 8.2e11 B/s, the figures behind the landing
// page's bench rows. The alternatives are kept in each fact's note.
#include "chip_table.h"

namespace tpusim::detail {

namespace {

constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * KiB;
constexpr double GiB = 1024.0 * MiB;

Fact fact(double value, const char* unit, const char* source, const char* note = "") {
    return Fact{value, unit, source, note, false};
}
Fact assumed(double value, const char* unit, const char* source, const char* note) {
    return Fact{value, unit, source, note, true};
}
Fact unpublished(const char* unit, const char* note) {
    return Fact{0, unit, "", note, false};
}

// Shared by every chip.
// The attainable fractions, as `tpusim validate` fits them on the published
// rows: each the median of what the long runs bound by its unit say. A
// chip with fewer than two such rows takes the value fitted on every
// chip's rows; the tests hold these to the fit.
void attainable(Chip& c, double mxu, const char* mxu_how, double ici, const char* ici_how) {
    const std::string fit = "[fit] tpusim validate, ";
    c.mxu_attainable =
        assumed(mxu, "fraction", (fit + mxu_how).c_str(),
                "The fraction of the MXU peak a long XLA matmul reaches on this chip, from published timings.");
    c.hbm_attainable =
        assumed(0.8208, "fraction", (fit + "median of 3 long memory-bound v6e ops, every chip's value").c_str(),
                "The fraction of HBM bandwidth a long memory-bound op reaches; only v6e rows fix it.");
    c.ici_attainable =
        assumed(ici, "fraction", (fit + ici_how).c_str(),
                "The fraction of the links' peak a long collective reaches on this chip, from published timings.");
    c.host_link_attainable =
        assumed(0.9034, "fraction", (fit + "median of 2 long v6e host copies, every chip's value").c_str(),
                "The fraction of the host link's bandwidth a long copy reaches; only v6e rows fix it.");
    c.flash_attainable =
        assumed(0.4202, "fraction", (fit + "median of 5 long v4 flash-attention runs, every chip's value").c_str(),
                "The fraction of the MXU and VPU peaks a flash-attention kernel's work reaches, its "
                "softmax waiting on its matmuls; only v4 rows (512 blocks) fix it.");
    c.flash_step = assumed(5.72e-7, "s",
                           (fit + "median of 3 v5e flash-attention runs their steps set, every chip's value").c_str(),
                           "The least time of one flash-attention grid step; only v5e rows (128 blocks) fix it.");
    c.collective_floor =
        assumed(4.62e-6, "s", (fit + "least of 2 short collectives on v6e and TPU7x, every chip's value").c_str(),
                "What every collective pays beyond its bytes and hops: its launch and the chips' synchronisation. "
                "The least that short published collectives leave over the links' time.");
}

void common(Chip& c) {
    c.smem_per_core = fact(1 * MiB, "B", "[JAX-INFO]", "v2/v3 had 16 KiB.");
    c.vpu_sublanes = fact(8, "", "[SB-TPU][JAX-INFO]");
    c.vpu_lanes = fact(128, "", "[SB-TPU][JAX-INFO]");
    c.ici_hop_latency = assumed(1e-6, "s", "[SB-TPU][SB-SHARD]",
                                "The book's round figure of about 1 µs per hop, stated for its v4 and v5e examples; "
                                "used for every chip since no other figure is published.");
    c.dma_latency = assumed(0.5e-6, "s", "[assumption]",
                            "No source gives a per-DMA latency; we assume 0.5 µs, the order of a DRAM round trip "
                            "plus issuing the descriptor. DMAs issued together overlap their latency; a Pallas "
                            "pipeline pays it only on the copies nothing overlaps (its first and its last).");
    // Both pipeline constants are fitted by fit_pipeline_constants (validation.h) on
    // the two rows named, and checked against it by the tests.
    c.grid_step_overhead =
        assumed(0.35e-6, "s", "[fit] tpusim validate, row jax-mm-8192-b128",
                "The least time one Pallas grid step takes (loop control, semaphore waits, DMA issue): "
                "a step's compute and copies run under it, not after it. Fitted on the published v5e "
                "time of a 262,144-step bf16 matmul (8192^3 in 128^3 blocks) [JAX-MM]; used for every "
                "chip, since only v5e has published rows.");
    c.kernel_launch = assumed(110e-6, "s", "[fit] tpusim validate, row jax-mm-1024-b512",
                              "The fixed cost of one Pallas call as a host timing loop sees it: dispatch, launch and "
                              "the wait for the result; a profiler shows less device time. Fitted on the published "
                              "v5e time of a 2-step bf16 matmul (1024^3 in 512x1024x1024 blocks) [JAX-MM]; used for "
                              "every chip, since only v5e has published rows.");
}

Chip v4() {
    Chip c;
    c.id = "v4";
    c.name = "TPU v4";
    c.peak_bf16 = fact(2.75e14, "FLOP/s", "[CL-v4][SB-TPU][JAX-INFO]", "All sources agree.");
    c.peak_int8 = fact(2.75e14, "OP/s", "[CL-v4][SB-TPU]",
                       "Cloud: 275 TOPS 'bf16 or int8'. [JAX-INFO] lists int8 as unavailable "
                       "on v4; we keep the published chip figure.");
    c.peak_fp8 = unpublished("FLOP/s", "No fp8 rate is published for v4.");
    c.peak_int4 = unpublished("OP/s", "No int4 rate is published for v4.");
    c.tensorcores = fact(2, "", "[CL-v4][JAX-INFO]");
    c.megacore = true;
    c.megacore_fact = fact(1, "yes/no", "[JAX-INFO][JAX-DET]", "The two TensorCores act as one device.");
    c.mxus_per_core = fact(4, "", "[CL-v4][JAX-INFO]", "A third-party page says 2; that contradicts Google's docs.");
    c.mxu_size = fact(128, "", "[SB-TPU][JAX-INFO]");
    c.clock_hz = fact(1.05e9, "Hz", "[derived] 275e12 / (2 TC × 4 MXU × 128^2 × 2)",
                      "Not published; derived from the peak rate.");
    c.vpu_flops_per_core =
        assumed(8 * 128 * 2 * 1.05e9, "FLOP/s", "[derived] 8 × 128 × 2 ALUs × 1.05 GHz [SB-TPU]",
                "The book's older text gives 2 ALUs per lane and sublane on v4; the clock is derived.");
    c.vregs_per_core = fact(32, "", "[SB-TPU]");
    c.hbm_capacity =
        fact(32 * GiB, "B", "[CL-v4][JAX-INFO]", "[JAX-INFO] 34.4e9 B is the same 32 GiB; [SB-TPU] writes 32GB.");
    c.hbm_bandwidth = fact(1.23e12, "B/s", "[JAX-INFO][SB-TPU Q1]",
                           "Cloud: 1200 GBps; [SB-TPU] table 1.2e12. Chose [JAX-INFO], the "
                           "table Pallas uses, for one consistent source across chips.");
    c.vmem_per_core = fact(16 * MiB, "B", "[JAX-INFO]", "[JAX-DET] says '16MB+'.");
    c.scoped_vmem_default = assumed(16 * MiB, "B", "[assumption] [JAX-CP]",
                                    "No Google document states it; a public code comment says 'commonly 16 MiB'. "
                                    "Raise it with vmem_limit_bytes [JAX-CP].");
    c.ici_ports = fact(6, "", "[SB-TPU]", "Nearest neighbours in a 3D torus.");
    c.ici_link_bandwidth = fact(4.5e10, "B/s", "[SB-TPU]", "The book's effective one-way figure (9e10 both ways).");
    c.ici_chip_bandwidth =
        assumed(6 * 9e10, "B/s", "[derived] 6 links × 9e10 [SB-TPU]", "Cloud's v4 page gives no per-chip ICI figure.");
    c.wraparound_min_axis = fact(4, "", "[CL-v4][SB-TPU]", "Slices built of full 4x4x4 cubes are tori.");
    c.pod_chips = fact(4096, "", "[CL-v4]");
    c.topology = {
        "3D torus; slices AxBxC with dimensions multiples of 4, twisted-torus "
        "variants for 2A=B=C or 2A=2B=C",
        "[CL-v4][SB-TPU]"};
    c.wraparound = {"wraparound on slices made of full 4x4x4 cubes", "[CL-v4][SB-TPU]"};
    c.host_link_bandwidth = fact(1.6e10, "B/s", "[SB-TPU]", "16 GB/s each way.");
    attainable(c, 0.9132, "median of 19 long bf16 and int8 matmuls on v5e, v6e and v7, every chip's value", 0.9224,
               "median of 6 long collectives on v5e, v5p, v6e and v7, every chip's value");
    common(c);
    return c;
}

Chip v5e() {
    Chip c;
    c.id = "v5e";
    c.name = "TPU v5e";
    c.peak_bf16 = fact(1.97e14, "FLOP/s", "[CL-v5e-old][CL-v5e-new][SB-TPU][JAX-INFO]", "All sources agree.");
    c.peak_int8 = fact(3.94e14, "OP/s", "[SB-TPU][JAX-INFO]", "Cloud's new table: 393 TOPs.");
    c.peak_fp8 = unpublished("FLOP/s", "[JAX-INFO] accepts fp8 on the MXU but gives no rate (0).");
    c.peak_int4 = fact(7.88e14, "OP/s", "[JAX-INFO]");
    c.tensorcores = fact(1, "", "[CL-v5e-new][JAX-INFO]");
    c.megacore_fact = fact(0, "yes/no", "[JAX-INFO]", "One TensorCore per chip.");
    c.mxus_per_core = fact(4, "", "[CL-v5e-new][JAX-INFO]");
    c.mxu_size = fact(128, "", "[SB-TPU][JAX-INFO]");
    c.clock_hz = fact(1.5e9, "Hz", "[SB-TPU]", "Derived from the peak: 1.503 GHz.");
    c.vpu_flops_per_core = assumed(8 * 128 * 4 * 1.5e9, "FLOP/s", "[derived] 8 × 128 × 4 ALUs × 1.5 GHz [SB-TPU]",
                                   "v5p's 4 ALUs per lane and sublane, taken for v5e, which no source gives.");
    c.vregs_per_core = unpublished("", "Not in the sources read.");
    c.hbm_capacity = fact(16 * GiB, "B", "[SB-TPU][JAX-INFO]", "Cloud writes 16 GB; [JAX-INFO] 17.2e9 B = 16 GiB.");
    c.hbm_bandwidth = fact(8.2e11, "B/s", "[JAX-INFO][SB-ROOF]",
                           "Others: 819 GB/s [CL-v5e-old][JAX-MM]; 800 GiB/s = 8.59e11 [CL-v5e-new]; 8.1e11 "
                           "[SB-TPU table]. 8.2e11 is what JAX uses and reproduces the landing page's bench rows.");
    c.vmem_per_core = fact(128 * MiB, "B", "[JAX-INFO][SB-TPU]", "MaxText says a 64M hardware limit [MT-BENCH].");
    c.scoped_vmem_default = assumed(16 * MiB, "B", "[assumption] [JAX-CP]",
                                    "No Google document states it; a public code comment says 'commonly 16 MiB'. "
                                    "Raise it with vmem_limit_bytes [JAX-CP].");
    c.ici_ports = fact(4, "", "[CL-v5e-new]");
    c.ici_link_bandwidth = fact(4.5e10, "B/s", "[SB-TPU]",
                                "Effective one-way figure. Cloud's 400 GBps per chip over 4 ports would give "
                                "100 GB/s per port both ways.");
    c.ici_chip_bandwidth = fact(4e11, "B/s", "[CL-v5e-new]", "Older Cloud text: 1600 Gbps in some locales.");
    c.wraparound_min_axis = fact(16, "", "[SB-TPU]");
    c.pod_chips = fact(256, "", "[CL-v5e][SB-TPU]");
    c.topology = {"2D torus, 16x16 chips per pod", "[CL-v5e-new][SB-TPU]"};
    c.wraparound = {"wraparound only on axes of size 16", "[SB-TPU]"};
    c.host_link_bandwidth = fact(1.5e10, "B/s", "[SB-TPU]",
                                 "The book gives about 1.5e10 to 1.6e10 B/s per chip; the lower figure is used.");
    attainable(c, 0.8978, "median of 2 long v5e matmuls", 0.9224,
               "median of 6 long collectives on v5e, v5p, v6e and v7, every chip's value");
    common(c);
    return c;
}

Chip v5p() {
    Chip c;
    c.id = "v5p";
    c.name = "TPU v5p";
    c.peak_bf16 = fact(4.59e14, "FLOP/s", "[CL-v5p][SB-TPU][JAX-INFO]", "All sources agree.");
    c.peak_int8 = fact(9.18e14, "OP/s", "[SB-TPU][JAX-INFO]");
    c.peak_fp8 = fact(4.59e14, "FLOP/s", "[CL-v5p][CL-7x]", "Runs at the bf16 rate; [JAX-INFO] lists 0.");
    c.peak_int4 = fact(1.84e15, "OP/s", "[JAX-INFO]");
    c.tensorcores = fact(2, "", "[CL-v5p][JAX-INFO]");
    c.megacore = true;
    c.megacore_fact = fact(1, "yes/no", "[JAX-INFO][JAX-DET]", "The two TensorCores act as one device.");
    c.mxus_per_core = fact(4, "", "[CL-v5p][JAX-INFO]");
    c.mxu_size = fact(128, "", "[SB-TPU][JAX-INFO]");
    c.clock_hz = fact(1.75e9, "Hz", "[SB-TPU]", "Derived from the peak: 1.751 GHz.");
    c.vpu_flops_per_core = fact(8 * 128 * 4 * 1.75e9, "FLOP/s", "[SB-TPU]",
                                "The book: about 1.4e13 per chip; roofline.md's footnote says "
                                "roughly 7e12, which matches one core.");
    c.vregs_per_core = fact(64, "", "[SB-TPU]");
    c.hbm_capacity =
        fact(95 * GiB, "B", "[CL-v5p]", "95 GiB usable of 96 GiB physical; [JAX-INFO] 103e9 B; [SB-TPU] 96GB.");
    c.hbm_bandwidth = fact(2.46e12, "B/s", "[JAX-INFO]",
                           "Cloud: 2765 GB/s; [SB-TPU] 2.8e12 (table) and 2.5e12 (text). "
                           "Chose [JAX-INFO] for one consistent source across chips.");
    c.vmem_per_core = fact(64 * MiB, "B", "[JAX-INFO]", "[JAX-PIPE-GEN] says 96MB; [SB-GPU] 128MB per chip.");
    c.scoped_vmem_default = assumed(16 * MiB, "B", "[assumption] [JAX-CP]",
                                    "No Google document states it; a public code comment says 'commonly 16 MiB'. "
                                    "Raise it with vmem_limit_bytes [JAX-CP].");
    c.ici_ports = fact(6, "", "[SB-TPU]");
    c.ici_link_bandwidth = fact(9e10, "B/s", "[SB-TPU]",
                                "Effective one-way figure; the book notes Cloud implies about 100 GB/s and that it "
                                "depends on the operation.");
    c.ici_chip_bandwidth = fact(1.2e12, "B/s", "[CL-v5p][CL-7x]", "Older text: 4800 Gbps.");
    c.wraparound_min_axis = fact(4, "", "[CL-v5p][SB-TPU]");
    c.pod_chips = fact(8960, "", "[CL-v5p][SB-TPU][MT-SPEC]");
    c.topology = {"3D torus, 16x20x28 chips per pod, built of 4x4x4 cubes", "[CL-v5p][SB-TPU][MT-SPEC]"};
    c.wraparound = {"slices of one 4x4x4 cube or more are full 3D tori (optical switches)", "[CL-v5p][SB-TPU]"};
    c.host_link_bandwidth = fact(1.6e10, "B/s", "[SB-TPU]");
    attainable(c, 0.9132, "median of 19 long bf16 and int8 matmuls on v5e, v6e and v7, every chip's value", 0.9224,
               "median of 6 long collectives on v5e, v5p, v6e and v7, every chip's value");
    common(c);
    return c;
}

Chip v6e() {
    Chip c;
    c.id = "v6e";
    c.name = "TPU v6e (Trillium)";
    c.peak_bf16 = fact(9.20e14, "FLOP/s", "[JAX-INFO][SB-TPU]", "Cloud: 918 TFLOP/s.");
    c.peak_int8 = fact(1.84e15, "OP/s", "[SB-TPU][JAX-INFO]", "Cloud: 1836 TOP/s.");
    c.peak_fp8 = fact(9.20e14, "FLOP/s", "[JAX-INFO]", "Cloud: 918, the bf16 rate [CL-7x].");
    c.peak_int4 = fact(3.68e15, "OP/s", "[JAX-INFO]");
    c.tensorcores = fact(1, "", "[CL-v6e][JAX-INFO]");
    c.megacore_fact = fact(0, "yes/no", "[JAX-INFO]", "One TensorCore per chip.");
    c.mxus_per_core = fact(2, "", "[CL-v6e][JAX-INFO]",
                           "2 MXUs of 256x256 do not reach 918 TFLOP/s below 3.5 GHz; use the "
                           "published peak, not a derived one.");
    c.mxu_size = fact(256, "", "[CL-v6e][SB-TPU][JAX-INFO]");
    c.clock_hz = unpublished("Hz", "Not published; the naive derivation (3.5 GHz) is implausible.");
    c.vpu_flops_per_core = assumed(8 * 128 * 4 * 1.75e9, "FLOP/s", "[assumption] v5p's [SB-TPU]",
                                   "No clock or ALU count published; assume v5p's per-core VPU.");
    c.vregs_per_core = unpublished("", "Not in the sources read.");
    c.hbm_capacity = fact(32 * GiB, "B", "[CL-7x][JAX-INFO]", "The v6e page writes 32 GB.");
    c.hbm_bandwidth = fact(1.64e12, "B/s", "[JAX-INFO]", "Cloud: 1638 GBps; [SB-TPU] 1.6e12.");
    c.vmem_per_core = fact(128 * MiB, "B", "[JAX-INFO][MT-BENCH]");
    c.scoped_vmem_default =
        assumed(32 * MiB, "B", "[VLLM-3194][VLLM-3407]",
                "Third-party CI logs show a 32.00M scoped limit on v6e; no Google document states it.");
    c.ici_ports = fact(4, "", "[CL-v6e]");
    c.ici_link_bandwidth = fact(9e10, "B/s", "[SB-TPU]", "Effective one-way figure; MaxText uses 180 GB/s per axis.");
    c.ici_chip_bandwidth = fact(8e11, "B/s", "[CL-v6e][CL-7x]");
    c.wraparound_min_axis = fact(16, "", "[MT-SPEC]", "v6e-256 is 16x16 with wraparound.");
    c.pod_chips = fact(256, "", "[CL-v6e]");
    c.topology = {"2D torus, 16x16 chips per pod", "[CL-v6e][MT-SPEC]"};
    c.wraparound = {"wraparound on axes of size 16", "[MT-SPEC]"};
    c.host_link_bandwidth = fact(3.2e10, "B/s", "[SB-TPU]", "PCIe Gen5 [CL-v6e].");
    attainable(c, 0.8881, "median of 6 long bf16 and int8 v6e matmuls", 0.9744, "median of 2 long v6e collectives");
    common(c);
    return c;
}

Chip v7() {
    Chip c;
    c.id = "v7";
    c.name = "TPU7x (Ironwood)";
    c.peak_bf16 =
        fact(2.31e15, "FLOP/s", "[JAX-INFO]", "Cloud: 2307 TFLOP/s. Per chip = 2 TensorCores, each its own device.");
    c.peak_int8 = unpublished("OP/s", "Not listed; [JAX-INFO] gives 0.");
    c.peak_fp8 = fact(4.60e15, "FLOP/s", "[JAX-INFO]", "Cloud: 4614 TFLOP/s, twice bf16.");
    c.peak_int4 = unpublished("OP/s", "[JAX-INFO] gives 0.");
    c.tensorcores = fact(2, "", "[CL-7x][JAX-INFO]");
    c.megacore_fact =
        fact(0, "yes/no", "[JAX-INFO][CL-7x]", "Two TensorCores (dual chiplet), each a separate JAX device.");
    c.mxus_per_core = fact(2, "", "[JAX-INFO]",
                           "Like v6e, the count and size do not reach the peak at a plausible "
                           "clock.");
    c.mxu_size = fact(256, "", "[JAX-INFO][MT-CUSTOM]");
    c.clock_hz = unpublished("Hz", "Not published; the naive derivation (4.4 GHz) is implausible.");
    c.vpu_flops_per_core = assumed(8 * 128 * 4 * 1.75e9, "FLOP/s", "[assumption] v5p's [SB-TPU]",
                                   "No clock or ALU count published; assume v5p's per-core VPU.");
    c.vregs_per_core = unpublished("", "Not in the sources read.");
    c.hbm_capacity =
        fact(192 * GiB, "B", "[CL-7x][JAX-INFO]", "[GDEV-7x] and [CL-7x-perf] write 192 GB; [JAX-INFO] 206e9 B.");
    c.hbm_bandwidth = fact(7.40e12, "B/s", "[JAX-INFO]", "Cloud: 7380 GB/s; [GDEV-7x] 7.38 TB/s.");
    c.vmem_per_core = fact(64 * MiB, "B", "[JAX-INFO][MT-BENCH][ISSUE-38988]");
    c.scoped_vmem_default =
        assumed(32 * MiB, "B", "[VLLM-3194][VLLM-3407]",
                "Third-party CI logs show 32.00M; [ISSUE-38988] shows a 64M limit with a newer jaxlib.");
    c.ici_ports = assumed(6, "", "[assumption] 3D torus", "Not stated; a 3D torus has 6 neighbours.");
    c.ici_link_bandwidth = assumed(1e11, "B/s", "[derived] 1200 GB/s [CL-7x] / 6 ports / 2",
                                   "Unverified: the per-chip figure split over six links.");
    c.ici_chip_bandwidth = fact(1.2e12, "B/s", "[CL-7x]");
    c.wraparound_min_axis = fact(4, "", "[MT-SPEC]");
    c.pod_chips = fact(9216, "", "[CL-7x]");
    c.topology = {"3D torus, 9216 chips per pod", "[CL-7x][MT-SPEC]"};
    c.wraparound = {"slices of 4x4x4 or more wrap on every axis; smaller ones do not", "[MT-SPEC]"};
    c.host_link_bandwidth = unpublished("B/s", "Not in the sources read.");
    attainable(c, 0.9475, "median of 11 long bf16 TPU7x matmuls", 0.8660, "median of 2 long TPU7x collectives");
    common(c);
    return c;
}

}  // namespace

std::vector<Chip> build_chip_table() {
    return {v4(), v5e(), v5p(), v6e(), v7()};
}

}  // namespace tpusim::detail
