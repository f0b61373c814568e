#pragma once
// Facts of the profiler's file format, with their sources:
//
// [XPLANE-PROTO] openxla/xla, xla/tsl/profiler/protobuf/xplane.proto (the
//   XSpace schema; the same file was tsl/profiler/protobuf/xplane.proto and,
//   earlier, tensorflow/core/profiler/protobuf/xplane.proto).
// [XPLANE-SCHEMA] openxla/xla, xla/tsl/profiler/utils/xplane_schema.cc: the
//   names of planes, lines and stats that the profiler writes.
// [XLA-LAYOUT] openxla/xla, xla/layout.h: memory space 5 is host memory
//   (Layout::kHostMemorySpace).
//
// Field numbers are those of [XPLANE-PROTO]; a map<K, V> field is written as
// repeated entries {1: key, 2: value}, as protobuf's encoding defines maps.
namespace tpuprofile::xplane {

// message XSpace
inline constexpr int space_planes = 1;     // repeated XPlane
inline constexpr int space_errors = 2;     // repeated string
inline constexpr int space_warnings = 3;   // repeated string
inline constexpr int space_hostnames = 4;  // repeated string

// message XPlane
inline constexpr int plane_id = 1;
inline constexpr int plane_name = 2;
inline constexpr int plane_lines = 3;           // repeated XLine
inline constexpr int plane_event_metadata = 4;  // map<int64, XEventMetadata>
inline constexpr int plane_stat_metadata = 5;   // map<int64, XStatMetadata>
inline constexpr int plane_stats = 6;           // repeated XStat

// message XLine
inline constexpr int line_id = 1;
inline constexpr int line_name = 2;
inline constexpr int line_timestamp_ns = 3;
inline constexpr int line_events = 4;  // repeated XEvent
inline constexpr int line_display_name = 11;

// message XEvent
inline constexpr int event_metadata_id = 1;
inline constexpr int event_offset_ps = 2;  // oneof data
inline constexpr int event_duration_ps = 3;
inline constexpr int event_stats = 4;            // repeated XStat
inline constexpr int event_num_occurrences = 5;  // oneof data

// message XStat: metadata_id = 1, then oneof value
inline constexpr int stat_metadata_id = 1;
inline constexpr int stat_double = 2;
inline constexpr int stat_uint64 = 3;
inline constexpr int stat_int64 = 4;
inline constexpr int stat_str = 5;
inline constexpr int stat_bytes = 6;
inline constexpr int stat_ref = 7;  // the id of an XStatMetadata whose name is the value

// message XEventMetadata
inline constexpr int event_md_id = 1;
inline constexpr int event_md_name = 2;
inline constexpr int event_md_display_name = 4;
inline constexpr int event_md_stats = 5;

// message XStatMetadata
inline constexpr int stat_md_id = 1;
inline constexpr int stat_md_name = 2;

// Names the profiler writes [XPLANE-SCHEMA].
inline constexpr const char* tpu_plane_prefix = "/device:TPU:";
inline constexpr const char* gpu_plane_prefix = "/device:GPU:";
inline constexpr const char* metadata_plane = "/host:metadata";
inline constexpr const char* task_environment_plane = "Task Environment";
inline constexpr const char* xla_ops_line = "XLA Ops";
inline constexpr const char* xla_modules_line = "XLA Modules";
inline constexpr const char* steps_line = "Steps";
inline constexpr const char* gpu_stream_line_prefix = "Stream #";

}  // namespace tpuprofile::xplane
