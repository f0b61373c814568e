// The IR x-ray's card for one dot_general: what it shows and what it
// predicts, from the dot as libtpusim's reader finds it.
#include <catch2/catch.hpp>

#include "irxraycards.h"

#include <tpusim/chips.h>
#include <tpusim/ir.h>
#include <tpusim/ir_dot.h>
#include <tpusim/roofline.h>

#include <string>

namespace {

// The card of the one dot of `lhs` x `rhs` (an HLO type each, such as
// "bf16[8,4096]") into `out`, contracting the lhs's last dim with the
// rhs's first, on v5e.
QVariantMap cardOf(const std::string &lhs, const std::string &rhs, const std::string &out)
{
    const std::string hlo = "ENTRY e {\n  a = " + lhs + "{1,0} parameter(0)\n  b = " + rhs +
                            "{1,0} parameter(1)\n  ROOT d = " + out +
                            "{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
    const auto dots = tpusim::ir::find_dots(tpusim::ir::parse(hlo, tpusim::ir::Format::hlo));
    REQUIRE(dots.size() == 1);
    return simqml::dotCard(dots.front(), dots.front().position.line, QStringLiteral("v5e"));
}

double predictedSeconds(const tpusim::MatmulSpec &spec)
{
    return tpusim::roofline(tpusim::chip("v5e"), tpusim::matmul_cost(spec)).time_s;
}

} // namespace

// bf16 operands with an f32 result, as JAX's preferred_element_type prints
// them: a bf16 matmul that writes f32, not an f32 matmul. At M = 8 the
// weights' bytes set the time, so reading them as f32 would double it.
TEST_CASE("a mixed-precision dot is priced at its operands' type", "[simqml][ir]")
{
    const QVariantMap card = cardOf("bf16[8,4096]", "bf16[4096,4096]", "f32[8,4096]");
    CHECK(card.value("lhs").toString() == QStringLiteral("bf16[8,4096]"));
    CHECK(card.value("rhs").toString() == QStringLiteral("bf16[4096,4096]"));
    CHECK(card.value("output").toString() == QStringLiteral("f32[8,4096]"));
    REQUIRE(card.contains("predicted"));

    tpusim::MatmulSpec mixed;
    mixed.m = 8;
    mixed.k = mixed.n = 4096;
    mixed.in = tpusim::DType::bf16;
    mixed.out = tpusim::DType::f32;
    tpusim::MatmulSpec allF32 = mixed;
    allF32.in = tpusim::DType::f32;
    REQUIRE(predictedSeconds(allF32) > 1.5 * predictedSeconds(mixed)); // the two differ enough to tell
    CHECK(card.value("predicted").toMap().value("timeS").toDouble() == Approx(predictedSeconds(mixed)));
}

// Operands of two types (int8 weights, bf16 activations) are each read at
// their own width; the product is priced at the wider one's rate.
TEST_CASE("a dot of two operand types reads each at its width", "[simqml][ir]")
{
    const QVariantMap card = cardOf("bf16[8,8192]", "s8[8192,8192]", "bf16[8,8192]");
    CHECK(card.value("rhs").toString() == QStringLiteral("s8[8192,8192]"));
    // HBM-bound at M = 8: the int8 weights' 64 MiB dominate the time.
    const double bytes = 8.0 * 8192 * 2 + 8192.0 * 8192 * 1 + 8.0 * 8192 * 2;
    const tpusim::Chip &v5e = tpusim::chip("v5e");
    CHECK(
        card.value("predicted").toMap().value("timeS").toDouble() ==
        Approx(tpusim::roofline(v5e, tpusim::generic_cost(2.0 * 8 * 8192 * 8192, bytes, tpusim::DType::bf16)).time_s));
}
