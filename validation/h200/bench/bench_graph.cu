// bench_graph.cu - what a node of a CUDA graph costs when its kernel does work, and how
// independent branches of one graph overlap, against the same launches issued on streams.
//
// Each node is k_chain: every thread of a block runs `iters` dependent FMAs (x = x*a + b)
// and writes x, so its time on the GPU is known from the FMA latency alone (iters = 0: the
// kernel only stores). A graph holds `branches` independent chains of `nodes` such kernels
// (captured from `branches` streams forked from and joined to one origin stream); the same
// commands issued without a graph go to `branches` streams, the host issuing node k of every
// branch before node k+1 of any. Rows (family graph_node):
//   graph   branches=B nodes=N iters=I grid=G   one replay of the graph (median of 7)
//   stream  branches=B nodes=N iters=I grid=G   the same launches on B streams
// Results are checked on the host: every output word of the last node of every branch.
// OUT.csv.gaps.csv adds, per row, the mean node duration and the mean gap from a node's end
// to the next node's start in its branch (ns, %globaltimer stamps of block 0, thread 0).
//
// usage: bench_graph OUT.csv [device]
#include "common.cuh"

// Block 0's thread 0 stamps the node's start and end (%globaltimer, ns) into stamp[2*slot],
// the end after its store; the last block to finish would end later, so the gap read from
// stamps is an upper bound for grids of more than one block per SM.
__global__ void k_chain(float *out, int iters, float a, float b, unsigned long long *stamp) {
  unsigned long long t0 = 0;
  if (stamp && blockIdx.x == 0 && threadIdx.x == 0) t0 = gtimer();
  float x = (float)threadIdx.x;
  for (int i = 0; i < iters; ++i) x = fmaf(x, a, b);
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
  if (stamp && blockIdx.x == 0 && threadIdx.x == 0) {
    __threadfence();
    stamp[0] = t0;
    stamp[1] = gtimer();
  }
}

// Host mirror of one thread's k_chain result (fmaf rounds once, as the device does).
static float chain_ref(unsigned tid, int iters, float a, float b) {
  float x = (float)tid;
  for (int i = 0; i < iters; ++i) x = fmaf(x, a, b);
  return x;
}

struct Shape {
  int branches, nodes, iters, grid;
};

static const int kBlock = 32;

// Enqueue the commands of a shape: fork from `origin`, B chains, join back.
static void enqueue(const Shape &s, cudaStream_t origin, std::vector<cudaStream_t> &br,
                    std::vector<cudaEvent_t> &ev, float **out, unsigned long long *stamps) {
  CK(cudaEventRecord(ev[0], origin));
  for (int b = 0; b < s.branches; ++b) CK(cudaStreamWaitEvent(br[b], ev[0], 0));
  for (int k = 0; k < s.nodes; ++k)
    for (int b = 0; b < s.branches; ++b) {
      // the two constants change with k so that no two nodes are the same computation
      float a = 0.999f + 1e-6f * (float)(k % 7), c = 0.5f + 0.001f * (float)(k % 5);
      k_chain<<<s.grid, kBlock, 0, br[b]>>>(
          out[b], s.iters, a, c, stamps ? stamps + 2 * ((size_t)b * s.nodes + k) : nullptr);
      CK_LAUNCH();
    }
  for (int b = 0; b < s.branches; ++b) {
    CK(cudaEventRecord(ev[1 + b], br[b]));
    CK(cudaStreamWaitEvent(origin, ev[1 + b], 0));
  }
}

static void check(const Shape &s, float **out) {
  int k = s.nodes - 1;
  float a = 0.999f + 1e-6f * (float)(k % 7), c = 0.5f + 0.001f * (float)(k % 5);
  std::vector<float> h((size_t)s.grid * kBlock);
  for (int b = 0; b < s.branches; ++b) {
    CK(cudaMemcpy(h.data(), out[b], h.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < h.size(); ++i) {
      float w = chain_ref((unsigned)(i % kBlock), s.iters, a, c);
      REQUIRE(h[i] == w, "branches=%d iters=%d: out[%d][%zu] = %g, expected %g", s.branches,
              s.iters, b, i, h[i], w);
    }
  }
}

// Mean node duration (end - start) and mean gap from a node's end to the next node's start
// in the same branch, in ns, from the stamps of the last replay.
static void stamp_stats(const Shape &s, const unsigned long long *d_stamps, double *dur,
                        double *gap) {
  std::vector<unsigned long long> h((size_t)2 * s.branches * s.nodes);
  CK(cudaMemcpy(h.data(), d_stamps, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
  double sd = 0, sg = 0;
  long nd = 0, ng = 0;
  for (int b = 0; b < s.branches; ++b)
    for (int k = 0; k < s.nodes; ++k) {
      const unsigned long long *p = &h[2 * ((size_t)b * s.nodes + k)];
      REQUIRE(p[1] >= p[0] && p[0] > 0, "stamps of branch %d node %d missing", b, k);
      sd += double(p[1] - p[0]);
      ++nd;
      if (k > 0) {
        sg += double(p[0]) - double(p[-1]);
        ++ng;
      }
    }
  *dur = nd ? sd / nd : 0;
  *gap = ng ? sg / ng : 0;
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int maxb = 8;
  std::vector<cudaStream_t> br(maxb);
  std::vector<cudaEvent_t> ev(maxb + 1);
  float *out[maxb];
  for (int i = 0; i < maxb; ++i) {
    CK(cudaStreamCreateWithFlags(&br[i], cudaStreamNonBlocking));
    CK(cudaMalloc(&out[i], (size_t)4 * b.sm_count * kBlock * sizeof(float)));
  }
  for (auto &e : ev) CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  unsigned long long *stamps = nullptr;
  CK(cudaMalloc(&stamps, (size_t)2 * maxb * 200 * sizeof *stamps));
  std::string gpath = std::string(argv[1]) + ".gaps.csv";
  FILE *gaps = fopen(gpath.c_str(), "w");
  REQUIRE(gaps, "cannot write %s", gpath.c_str());
  fprintf(gaps, "name,params,median_us,node_ns,gap_ns\n");

  std::vector<Shape> shapes;
  for (int iters : {0, 1000, 4000})
    for (int branches : {1, 2, 4, 8}) shapes.push_back({branches, 200, iters, 1});
  for (int iters : {0, 1000}) {
    shapes.push_back({1, 200, iters, 4 * b.sm_count});
    shapes.push_back({4, 200, iters, 4 * b.sm_count});
  }
  for (int nodes : {10, 50}) shapes.push_back({1, nodes, 1000, 1});

  for (const Shape &s : shapes) {
    char params[128];
    snprintf(params, sizeof params, "branches=%d nodes=%d iters=%d grid=%d", s.branches,
             s.nodes, s.iters, s.grid);
    // the graph
    cudaGraph_t g = nullptr;
    cudaGraphExec_t ge = nullptr;
    CK(cudaStreamBeginCapture(b.stream, cudaStreamCaptureModeGlobal));
    enqueue(s, b.stream, br, ev, out, stamps);
    CK(cudaStreamEndCapture(b.stream, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphUpload(ge, b.stream));
    for (int i = 0; i < s.branches; ++i) CK(cudaMemset(out[i], 0, (size_t)s.grid * kBlock * 4));
    CK(cudaDeviceSynchronize());
    Row r;
    r.family = "graph_node";
    r.name = "graph";
    r.params = params;
    row_shape(r, k_chain, dim3(s.grid), dim3(kBlock), 0);
    r.t = time_case(b, 7, false, [&] { CK(cudaGraphLaunch(ge, b.stream)); });
    r.flops = 2ull * s.iters * s.grid * kBlock * s.nodes * s.branches;
    CK(cudaDeviceSynchronize());
    check(s, out);
    emit(b, r);
    double dur, gap;
    stamp_stats(s, stamps, &dur, &gap);
    fprintf(gaps, "graph,%s,%.3f,%.1f,%.1f\n", params, r.t.median_us, dur, gap);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    // the same launches on streams
    for (int i = 0; i < s.branches; ++i) CK(cudaMemset(out[i], 0, (size_t)s.grid * kBlock * 4));
    CK(cudaDeviceSynchronize());
    r.name = "stream";
    r.t = time_case(b, 7, false, [&] { enqueue(s, b.stream, br, ev, out, stamps); });
    CK(cudaDeviceSynchronize());
    check(s, out);
    emit(b, r);
    stamp_stats(s, stamps, &dur, &gap);
    fprintf(gaps, "stream,%s,%.3f,%.1f,%.1f\n", params, r.t.median_us, dur, gap);
    fflush(gaps);
  }
  for (int i = 0; i < maxb; ++i) {
    CK(cudaFree(out[i]));
    CK(cudaStreamDestroy(br[i]));
  }
  for (auto &e : ev) CK(cudaEventDestroy(e));
  CK(cudaFree(stamps));
  fclose(gaps);
  bench_close(b);
  return 0;
}
