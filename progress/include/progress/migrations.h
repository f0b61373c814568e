#pragma once

// The schema's history. Entry N takes a database from user_version N-1 to N
// and runs inside the same transaction that sets user_version, so a
// migration is applied whole or not at all.
//
// To change the schema, append an entry. Never edit or reorder one that has
// shipped: learners' databases have already run it.
//
// Tables that are history (the event log now; gate attempts and run records
// later) are append-only, enforced in SQL so that no code path, ours or a
// hand-typed one, can rewrite them:
//   - BEFORE UPDATE and BEFORE DELETE triggers that RAISE(ABORT);
//   - a BEFORE INSERT trigger refusing an id already in use, because
//     INSERT OR REPLACE deletes the old row without firing delete triggers.

#include <array>
#include <cstddef>
#include <string_view>

namespace progress {

struct Migration {
    int version;
    std::string_view summary;
    std::string_view sql;
};

// "TPUC", written to PRAGMA application_id when the first migration runs:
// marks a file as ours, so another program's SQLite database is refused
// rather than having our tables added to it.
inline constexpr int kApplicationId = 0x54505543;

inline constexpr std::array kMigrations{
    Migration{1, "chapters, mastery items and the event log", R"sql(
        CREATE TABLE chapters (
            number          INTEGER PRIMARY KEY,
            slug            TEXT NOT NULL,
            title           TEXT NOT NULL,
            first_opened_ms INTEGER,
            last_opened_ms  INTEGER
        ) STRICT;

        CREATE TABLE mastery_items (
            chapter    INTEGER NOT NULL REFERENCES chapters(number),
            item_id    TEXT NOT NULL,
            done_at_ms INTEGER NOT NULL,
            PRIMARY KEY (chapter, item_id)
        ) STRICT;

        CREATE TABLE event_log (
            id      INTEGER PRIMARY KEY,
            at_ms   INTEGER NOT NULL,
            kind    TEXT NOT NULL,
            subject TEXT NOT NULL,
            detail  TEXT NOT NULL
        ) STRICT;

        CREATE INDEX event_log_by_kind ON event_log(kind);

        CREATE TRIGGER event_log_no_update BEFORE UPDATE ON event_log
        BEGIN
            SELECT RAISE(ABORT, 'the event log is append-only: rows cannot be changed');
        END;

        CREATE TRIGGER event_log_no_delete BEFORE DELETE ON event_log
        BEGIN
            SELECT RAISE(ABORT, 'the event log is append-only: rows cannot be deleted');
        END;

        CREATE TRIGGER event_log_no_replace BEFORE INSERT ON event_log
        WHEN EXISTS (SELECT 1 FROM event_log WHERE id = NEW.id)
        BEGIN
            SELECT RAISE(ABORT, 'the event log is append-only: rows cannot be replaced');
        END;
    )sql"},
    Migration{2, "run records, predictions and gate attempts", R"sql(
        -- One row per imported run record. The hash is of the record's
        -- canonical JSON, so importing the same record twice is recognised.
        CREATE TABLE run_records (
            id                INTEGER PRIMARY KEY,
            record_sha256     TEXT NOT NULL UNIQUE,
            lab               TEXT NOT NULL,
            kind              TEXT NOT NULL CHECK (kind IN ('measured', 'verified-off-chip')),
            chip              TEXT NOT NULL,
            dtype             TEXT NOT NULL,
            shapes            TEXT NOT NULL,
            measured_at       TEXT NOT NULL,
            median_s          REAL,
            baseline_median_s REAL,
            correct           INTEGER NOT NULL CHECK (correct IN (0, 1)),
            example           INTEGER NOT NULL CHECK (example IN (0, 1)),
            source_file       TEXT NOT NULL,
            record_json       TEXT NOT NULL,
            imported_at_ms    INTEGER NOT NULL
        ) STRICT;

        -- A learner's predictions, time-stamped when entered (gate G0 needs
        -- them entered before the measurement). A later entry supersedes an
        -- earlier one; none is ever changed.
        CREATE TABLE predictions (
            id            INTEGER PRIMARY KEY,
            gate          TEXT NOT NULL,
            subject       TEXT NOT NULL,
            value         REAL NOT NULL CHECK (value > 0),
            unit          TEXT NOT NULL,
            entered_at_ms INTEGER NOT NULL
        ) STRICT;

        -- Every gate attempt, pass or fail, with the reasons for its verdict.
        CREATE TABLE gate_attempts (
            id           INTEGER PRIMARY KEY,
            gate         TEXT NOT NULL,
            run_record   INTEGER NOT NULL REFERENCES run_records(id),
            judged_at_ms INTEGER NOT NULL,
            passed       INTEGER NOT NULL CHECK (passed IN (0, 1)),
            reasons      TEXT NOT NULL
        ) STRICT;

        CREATE TRIGGER run_records_no_update BEFORE UPDATE ON run_records
        BEGIN SELECT RAISE(ABORT, 'run records are append-only: rows cannot be changed'); END;
        CREATE TRIGGER run_records_no_delete BEFORE DELETE ON run_records
        BEGIN SELECT RAISE(ABORT, 'run records are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER run_records_no_replace BEFORE INSERT ON run_records
        WHEN EXISTS (SELECT 1 FROM run_records WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'run records are append-only: rows cannot be replaced'); END;

        CREATE TRIGGER predictions_no_update BEFORE UPDATE ON predictions
        BEGIN SELECT RAISE(ABORT, 'predictions are append-only: rows cannot be changed'); END;
        CREATE TRIGGER predictions_no_delete BEFORE DELETE ON predictions
        BEGIN SELECT RAISE(ABORT, 'predictions are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER predictions_no_replace BEFORE INSERT ON predictions
        WHEN EXISTS (SELECT 1 FROM predictions WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'predictions are append-only: rows cannot be replaced'); END;

        CREATE TRIGGER gate_attempts_no_update BEFORE UPDATE ON gate_attempts
        BEGIN SELECT RAISE(ABORT, 'gate attempts are append-only: rows cannot be changed'); END;
        CREATE TRIGGER gate_attempts_no_delete BEFORE DELETE ON gate_attempts
        BEGIN SELECT RAISE(ABORT, 'gate attempts are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER gate_attempts_no_replace BEFORE INSERT ON gate_attempts
        WHEN EXISTS (SELECT 1 FROM gate_attempts WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'gate attempts are append-only: rows cannot be replaced'); END;
    )sql"},
    Migration{3, "the goals of mastery items, each reached once, and the learner's settings", R"sql(
        -- A mastery item may be made of goals a piece checks one by one
        -- (verified a schedule, broke one); the item is done when all are.
        CREATE TABLE mastery_goals (
            chapter       INTEGER NOT NULL REFERENCES chapters(number),
            item_id       TEXT NOT NULL,
            goal_id       TEXT NOT NULL,
            reached_at_ms INTEGER NOT NULL,
            PRIMARY KEY (chapter, item_id, goal_id)
        ) STRICT;

        -- Choices the learner makes once for the whole course (the chip the
        -- numbers are for), one value per key.
        CREATE TABLE settings (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) STRICT;
    )sql"},
    Migration{4, "drill reviews, append-only", R"sql(
        -- Every answer to a drill question: the card kind FSRS schedules, the
        -- level and seed that regenerate the question, the answer as typed,
        -- the time taken, the grade, and the kind's memory after the review.
        CREATE TABLE drill_reviews (
            id             INTEGER PRIMARY KEY,
            drill          TEXT NOT NULL,
            kind           TEXT NOT NULL,
            level          INTEGER NOT NULL CHECK (level >= 1),
            seed           INTEGER NOT NULL,
            answer         TEXT NOT NULL,
            correct        INTEGER NOT NULL CHECK (correct IN (0, 1)),
            fields_right   INTEGER NOT NULL,
            fields_asked   INTEGER NOT NULL,
            elapsed_ms     INTEGER NOT NULL CHECK (elapsed_ms >= 0),
            grade          INTEGER NOT NULL CHECK (grade BETWEEN 1 AND 4),
            reviewed_at_ms INTEGER NOT NULL,
            stability      REAL NOT NULL CHECK (stability > 0),
            difficulty     REAL NOT NULL CHECK (difficulty BETWEEN 1 AND 10),
            due_at_ms      INTEGER NOT NULL
        ) STRICT;

        CREATE INDEX drill_reviews_by_kind ON drill_reviews(kind, id);

        CREATE TRIGGER drill_reviews_no_update BEFORE UPDATE ON drill_reviews
        BEGIN SELECT RAISE(ABORT, 'drill reviews are append-only: rows cannot be changed'); END;
        CREATE TRIGGER drill_reviews_no_delete BEFORE DELETE ON drill_reviews
        BEGIN SELECT RAISE(ABORT, 'drill reviews are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER drill_reviews_no_replace BEFORE INSERT ON drill_reviews
        WHEN EXISTS (SELECT 1 FROM drill_reviews WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'drill reviews are append-only: rows cannot be replaced'); END;
    )sql"},
    Migration{5, "measured runs from imported profiles, append-only", R"sql(
        -- One device of one imported profile file: what the device itself
        -- measured (jax.profiler's device times), with the file's sha256 so
        -- the same file is stored once.
        CREATE TABLE profile_imports (
            id             INTEGER PRIMARY KEY,
            file_sha256    TEXT NOT NULL CHECK (length(file_sha256) = 64),
            device         TEXT NOT NULL,
            device_type    TEXT NOT NULL,
            chip           TEXT NOT NULL,
            format         TEXT NOT NULL,
            source_file    TEXT NOT NULL,
            captured_at    TEXT NOT NULL,
            op_events      INTEGER NOT NULL CHECK (op_events >= 0),
            busy_ps        INTEGER NOT NULL CHECK (busy_ps >= 0),
            span_ps        INTEGER NOT NULL CHECK (span_ps >= busy_ps),
            imported_at_ms INTEGER NOT NULL,
            UNIQUE (file_sha256, device)
        ) STRICT;

        -- Each op of that device: its measured self time and, where the
        -- simulator has one, the prediction it was set beside.
        CREATE TABLE profile_ops (
            id             INTEGER PRIMARY KEY,
            import_id      INTEGER NOT NULL REFERENCES profile_imports(id),
            program        TEXT NOT NULL,
            program_id     TEXT NOT NULL,
            op             TEXT NOT NULL,
            kind           TEXT NOT NULL,
            occurrences    INTEGER NOT NULL CHECK (occurrences >= 1),
            self_ps        INTEGER NOT NULL CHECK (self_ps >= 0),
            total_ps       INTEGER NOT NULL CHECK (total_ps >= self_ps),
            flops          INTEGER,
            bytes_accessed INTEGER,
            predicted_s    REAL,
            model          TEXT NOT NULL
        ) STRICT;

        CREATE INDEX profile_ops_by_import ON profile_ops(import_id, id);

        CREATE TRIGGER profile_imports_no_update BEFORE UPDATE ON profile_imports
        BEGIN SELECT RAISE(ABORT, 'profile imports are append-only: rows cannot be changed'); END;
        CREATE TRIGGER profile_imports_no_delete BEFORE DELETE ON profile_imports
        BEGIN SELECT RAISE(ABORT, 'profile imports are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER profile_imports_no_replace BEFORE INSERT ON profile_imports
        WHEN EXISTS (SELECT 1 FROM profile_imports WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'profile imports are append-only: rows cannot be replaced'); END;
        CREATE TRIGGER profile_ops_no_update BEFORE UPDATE ON profile_ops
        BEGIN SELECT RAISE(ABORT, 'profile ops are append-only: rows cannot be changed'); END;
        CREATE TRIGGER profile_ops_no_delete BEFORE DELETE ON profile_ops
        BEGIN SELECT RAISE(ABORT, 'profile ops are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER profile_ops_no_replace BEFORE INSERT ON profile_ops
        WHEN EXISTS (SELECT 1 FROM profile_ops WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'profile ops are append-only: rows cannot be replaced'); END;
    )sql"},
    Migration{6, "a hash chain over the history", R"sql(
        -- One entry per row appended to a history table, in the order they
        -- were added: the SHA-256 of the row's content and a hash chaining
        -- it to the entry before. Verified on every open, so an edit, a
        -- deletion or a row inserted by hand is evident (src/chain.h).
        CREATE TABLE history_chain (
            id           INTEGER PRIMARY KEY,
            source       TEXT NOT NULL,
            row_id       INTEGER NOT NULL,
            row_sha256   TEXT NOT NULL CHECK (length(row_sha256) = 64),
            chain_sha256 TEXT NOT NULL CHECK (length(chain_sha256) = 64),
            UNIQUE (source, row_id)
        ) STRICT;

        CREATE TRIGGER history_chain_no_update BEFORE UPDATE ON history_chain
        BEGIN SELECT RAISE(ABORT, 'the history chain is append-only: rows cannot be changed'); END;
        CREATE TRIGGER history_chain_no_delete BEFORE DELETE ON history_chain
        BEGIN SELECT RAISE(ABORT, 'the history chain is append-only: rows cannot be deleted'); END;
        CREATE TRIGGER history_chain_no_replace BEFORE INSERT ON history_chain
        WHEN EXISTS (SELECT 1 FROM history_chain WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'the history chain is append-only: rows cannot be replaced'); END;
    )sql"},
    Migration{7, "the learner's bookmarks and notes on paragraphs", R"sql(
        -- The learner's own marks, not history: kept, changed and removed
        -- at will, so neither append-only nor in the hash chain. A
        -- paragraph is named by the heading above it and its place after
        -- that heading; the excerpt keeps its first words for the lists.
        CREATE TABLE reading_marks (
            chapter    INTEGER NOT NULL,
            block      TEXT NOT NULL CHECK (length(block) BETWEEN 1 AND 200),
            bookmarked INTEGER NOT NULL DEFAULT 0 CHECK (bookmarked IN (0, 1)),
            note       TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 10000),
            excerpt    TEXT NOT NULL DEFAULT '' CHECK (length(excerpt) <= 200),
            updated_ms INTEGER NOT NULL,
            PRIMARY KEY (chapter, block)
        ) STRICT;
    )sql"},
    Migration{8, "drill regrades, append-only, and the reviews as graded", R"sql(
        -- The learner's own grade for a review just made ("that was easy",
        -- "I guessed"), with the kind's memory and due time worked again
        -- from it. Appended, never changed: the review keeps the grade the
        -- app gave, and the newest regrade of a review is the one that
        -- counts.
        CREATE TABLE drill_regrades (
            id             INTEGER PRIMARY KEY,
            review_id      INTEGER NOT NULL REFERENCES drill_reviews(id),
            grade          INTEGER NOT NULL CHECK (grade BETWEEN 1 AND 4),
            regraded_at_ms INTEGER NOT NULL,
            stability      REAL NOT NULL CHECK (stability > 0),
            difficulty     REAL NOT NULL CHECK (difficulty BETWEEN 1 AND 10),
            due_at_ms      INTEGER NOT NULL
        ) STRICT;

        CREATE INDEX drill_regrades_by_review ON drill_regrades(review_id, id);

        CREATE TRIGGER drill_regrades_no_update BEFORE UPDATE ON drill_regrades
        BEGIN SELECT RAISE(ABORT, 'drill regrades are append-only: rows cannot be changed'); END;
        CREATE TRIGGER drill_regrades_no_delete BEFORE DELETE ON drill_regrades
        BEGIN SELECT RAISE(ABORT, 'drill regrades are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER drill_regrades_no_replace BEFORE INSERT ON drill_regrades
        WHEN EXISTS (SELECT 1 FROM drill_regrades WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'drill regrades are append-only: rows cannot be replaced'); END;

        -- Each review with its newest regrade's grade, memory and due time
        -- in place of its own: what scheduling and the report read.
        CREATE VIEW drill_reviews_graded AS
        SELECT r.id, r.drill, r.kind, r.level, r.seed, r.answer, r.correct, r.fields_right, r.fields_asked,
               r.elapsed_ms, coalesce(g.grade, r.grade) AS grade, r.reviewed_at_ms,
               coalesce(g.stability, r.stability) AS stability, coalesce(g.difficulty, r.difficulty) AS difficulty,
               coalesce(g.due_at_ms, r.due_at_ms) AS due_at_ms
        FROM drill_reviews r
        LEFT JOIN drill_regrades g ON g.id = (SELECT max(id) FROM drill_regrades WHERE review_id = r.id);
    )sql"},
    Migration{9, "profile ops priced again, append-only", R"sql(
        -- Each time an imported profile's ops are set beside predictions:
        -- by the build that imported it (a pricing of no rows of its own:
        -- the prices are those profile_ops was written with), or again,
        -- when a later build opening the same file predicts differently.
        -- The newest pricing of an import is the one shown; all are kept.
        CREATE TABLE profile_pricings (
            id           INTEGER PRIMARY KEY,
            import_id    INTEGER NOT NULL REFERENCES profile_imports(id),
            priced_by    TEXT NOT NULL,
            priced_at_ms INTEGER NOT NULL,
            with_ops     INTEGER NOT NULL CHECK (with_ops IN (0, 1))
        ) STRICT;

        CREATE INDEX profile_pricings_by_import ON profile_pricings(import_id, id);

        -- A pricing's prediction for one op (with_ops = 1).
        CREATE TABLE profile_op_prices (
            id          INTEGER PRIMARY KEY,
            pricing_id  INTEGER NOT NULL REFERENCES profile_pricings(id),
            op_id       INTEGER NOT NULL REFERENCES profile_ops(id),
            predicted_s REAL,
            model       TEXT NOT NULL,
            UNIQUE (pricing_id, op_id)
        ) STRICT;

        CREATE TRIGGER profile_pricings_no_update BEFORE UPDATE ON profile_pricings
        BEGIN SELECT RAISE(ABORT, 'profile pricings are append-only: rows cannot be changed'); END;
        CREATE TRIGGER profile_pricings_no_delete BEFORE DELETE ON profile_pricings
        BEGIN SELECT RAISE(ABORT, 'profile pricings are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER profile_pricings_no_replace BEFORE INSERT ON profile_pricings
        WHEN EXISTS (SELECT 1 FROM profile_pricings WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'profile pricings are append-only: rows cannot be replaced'); END;
        CREATE TRIGGER profile_op_prices_no_update BEFORE UPDATE ON profile_op_prices
        BEGIN SELECT RAISE(ABORT, 'profile op prices are append-only: rows cannot be changed'); END;
        CREATE TRIGGER profile_op_prices_no_delete BEFORE DELETE ON profile_op_prices
        BEGIN SELECT RAISE(ABORT, 'profile op prices are append-only: rows cannot be deleted'); END;
        CREATE TRIGGER profile_op_prices_no_replace BEFORE INSERT ON profile_op_prices
        WHEN EXISTS (SELECT 1 FROM profile_op_prices WHERE id = NEW.id)
        BEGIN SELECT RAISE(ABORT, 'profile op prices are append-only: rows cannot be replaced'); END;
    )sql"},
};

namespace detail {
constexpr bool numberedFromOneWithoutGaps() {
    for (std::size_t i = 0; i < kMigrations.size(); ++i) {
        if (kMigrations[i].version != static_cast<int>(i) + 1) {
            return false;
        }
    }
    return true;
}
}  // namespace detail

static_assert(detail::numberedFromOneWithoutGaps(), "kMigrations must be numbered 1, 2, 3, ... in order");

inline constexpr int kLatestSchema = static_cast<int>(kMigrations.size());

}  // namespace progress
