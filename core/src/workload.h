/*
 * workload.h - a workload: what a script describes, ready for the engine.
 *
 * The workload owns every pointer inside it (kernel names, op arrays, the
 * arrays below); gp_workload_free releases all of it.
 */
#ifndef GP_WORKLOAD_H
#define GP_WORKLOAD_H

#include <stdint.h>

#include "gpuperf/plugin.h"

#define GP_WL_NAME_MAX 64
/* Most identical devices a workload may target. */
#define GP_WL_MAX_DEVICES 64

/* A buffer the script declared: its size lets the model judge cache reuse. */
typedef struct gp_buffer {
    char name[GP_WL_NAME_MAX];
    uint64_t bytes;
    uint32_t line;
    uint32_t in_l2;     /* 1: in the L2 of device l2_device when the script starts */
    uint32_t l2_device;
} gp_buffer_t;

/* A stream. Stream 0 is the default (legacy, synchronising) stream, one per
   device; any other stream belongs to the device of its first command. */
typedef struct gp_stream {
    char name[GP_WL_NAME_MAX];
    uint32_t line;
    uint32_t device;      /* the device its commands run on */
    uint32_t device_line; /* line of the command that bound it; 0: none yet */
} gp_stream_t;

typedef enum gp_cmd_type {
    GP_CMD_LAUNCH = 0,   /* a kernel launch on a stream */
    GP_CMD_COPY,         /* a memory copy on a stream */
    GP_CMD_RECORD,       /* record event `event` on the stream */
    GP_CMD_WAIT,         /* the stream waits for event `event` */
    GP_CMD_SYNC,         /* the host waits for the stream (UINT32_MAX: every
                            stream of `device`, or of all devices when
                            device is UINT32_MAX) */
    GP_CMD_FLUSH_L2,     /* the L2 of `device` is emptied, in stream order */
    GP_CMD_GRAPH,        /* replay graph `graph` into the stream */
    GP_CMD_TYPE_COUNT
} gp_cmd_type_t;

typedef enum gp_copy_kind {
    GP_COPY_H2D = 0,  /* host to device (PCIe) */
    GP_COPY_D2H,      /* device to host (PCIe) */
    GP_COPY_D2D,      /* within one device (DRAM read + write) */
    GP_COPY_P2P,      /* between devices (NVLink or PCIe) */
    GP_COPY_KIND_COUNT
} gp_copy_kind_t;

/* One command, in the order the host issues them. */
typedef struct gp_command {
    uint32_t type;     /* gp_cmd_type_t */
    uint32_t stream;   /* index into streams */
    uint32_t line;     /* script line */
    uint32_t device;   /* target device index (several identical GPUs); for
                          the default stream it picks the device's own */
    /* GP_CMD_LAUNCH: the kernel; name and ops are owned by the workload */
    gp_kernel_t kernel;
    /* GP_CMD_COPY */
    uint32_t copy_kind;   /* gp_copy_kind_t */
    uint32_t peer_device; /* GP_COPY_P2P: the device the bytes go to (from
                             `device`) */
    uint64_t copy_bytes;
    /* GP_CMD_RECORD / GP_CMD_WAIT */
    uint32_t event;
    /* GP_CMD_GRAPH: index into the workload's graphs */
    uint32_t graph;
    /* GP_CMD_COPY: 1 + the index of the buffer it writes and of the one it
       reads (0: not named), for the L2 state between launches */
    uint32_t copy_dst, copy_src;
    /* GP_CMD_FLUSH_L2: 1 when the flush reads its scratch buffer (the L2
       left clean) instead of writing it (left dirty) */
    uint32_t flush_clean;
} gp_command_t;

/*
 * A captured graph (gpuperf.graph): the commands issued while it was being
 * captured, in capture order. They are launches, copies, L2 flushes and
 * event records and waits; `stream` names the stream each was captured on
 * (order inside the graph: each captured stream in order, events between
 * them). Events recorded inside a capture are the graph's own. Replays
 * (GP_CMD_GRAPH) share these commands: the graph owns them.
 */
typedef struct gp_graph {
    gp_command_t *cmds;
    uint32_t n_cmds;
    uint32_t n_nodes;  /* launches, copies and flushes: what one replay runs */
    uint32_t line;     /* script line of gpuperf.graph */
    uint32_t device;   /* the device it was captured for */
} gp_graph_t;

/* A parameter the script declared with gpuperf.param. */
typedef struct gp_param_decl {
    char name[GP_WL_NAME_MAX];
    char help[128];
    double default_value;
    double value;        /* after -p overrides */
    int is_string;       /* declared with a string default */
    char default_str[128];
    char value_str[128];
    uint32_t line;
} gp_param_decl_t;

typedef struct gp_workload {
    char script[512];       /* path as given */
    gp_buffer_t *buffers;
    uint32_t n_buffers;
    gp_stream_t *streams;   /* streams[0] is the default stream */
    uint32_t n_streams;
    uint32_t n_events;
    uint32_t n_devices;     /* identical devices the script targets (1..
                               GP_WL_MAX_DEVICES) */
    gp_command_t *cmds;
    uint32_t n_cmds;
    gp_param_decl_t *params;
    uint32_t n_params;
    gp_graph_t *graphs;     /* captured graphs, replayed by GP_CMD_GRAPH */
    uint32_t n_graphs;
    /* gpuperf.elapsed(start, stop): the script's time is the interval from
       the last record of event `start` to that of `stop`, as
       cudaEventElapsedTime measures it; line 0: not declared (the time is
       the whole run's) */
    struct {
        uint32_t start, stop, line;
        char start_name[GP_WL_NAME_MAX], stop_name[GP_WL_NAME_MAX];
    } elapsed;
    /* addresses sampled from index functions, which the ops' access.sample
       point to (each one allocation: the struct, then its offsets) */
    gp_lane_sample_t **samples;
    uint32_t n_samples;
} gp_workload_t;

/* Release everything the workload owns and zero it. Safe on a zeroed one. */
void gp_workload_free(gp_workload_t *wl);

/* Number of GP_CMD_LAUNCH commands (issued directly, not counting those
   inside graphs). */
uint32_t gp_workload_launches(const gp_workload_t *wl);

/* Free the commands of an array (kernel names and ops); not the array. */
void gp_workload_free_cmds(gp_command_t *cmds, uint32_t n);

/* Launches, copies and flushes that run: those issued directly plus, for
   each graph replay, the graph's (what a prediction reports one row each;
   saturates at UINT64_MAX). */
uint64_t gp_workload_instances(const gp_workload_t *wl);

#endif /* GP_WORKLOAD_H */
