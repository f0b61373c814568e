pragma Singleton
import QtQuick

// The kinds of value the course shows, each said once: the word on its
// badge, the line the stack's honesty card gives it, and the fuller
// sentence of the key at the page's foot. Colours stay in Theme.
QtObject {
    // In the order the honesty card and the key list them.
    readonly property var kinds: [
        { kind: "predicted", label: "predicted",
          brief: "from the simulator's model of the chip",
          full: "a roofline or simulator prediction: chip model, dtype, shapes and assumptions attached" },
        { kind: "verified", label: "verified off-chip",
          brief: "correct, checked without a TPU; never a speed",
          full: "correctness checked without a TPU, e.g. Pallas interpret mode on a CPU; never a speed" },
        { kind: "measured", label: "measured",
          brief: "a run on a real chip, with chip, dtype, shapes, date",
          full: "a run on a real chip, with chip, dtype, shapes and date" },
        { kind: "published", label: "published",
          brief: "measured by others, printed with its source",
          full: "measured by others and printed with its source: a paper, a kernel repository, a vendor's page" },
        { kind: "assumed", label: "assumed",
          brief: "the simulator's own figure where no source gives one",
          full: "the simulator's own figure where no source gives one, such as a hop's latency; marked wherever it is used" }
    ]
    // Not a kind of value but of gate attempt: keyed at the foot only.
    readonly property var failed: ({ kind: "failed", label: "failed",
                                     full: "a gate attempt that did not pass; kept and reported, never hidden" })

    function label(kind: string): string {
        if (kind === failed.kind) return failed.label
        for (let i = 0; i < kinds.length; ++i)
            if (kinds[i].kind === kind) return kinds[i].label
        return "predicted"
    }
}
