/* Issue 15 from a C host: several POSIX threads search one engine's tree through
 * imcts_engine_search_threads and imcts_search_worker (built by ffi/tests/hosts.rs with ASan and
 * UBSan, linked with -pthread). Each check can fail: a lost or doubled simulation shows in the
 * counts, a broken tree in an illegal move or a wrong proof. */
#define _DEFAULT_SOURCE
#include "imcts.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      failures++;                                                              \
    }                                                                          \
  } while (0)

/* The host's thread pool for one search: pthreads started by `start`, joined by `join`. */
typedef struct {
  pthread_t thread[IMCTS_MAX_SEARCH_THREADS];
  const imcts_work *work[IMCTS_MAX_SEARCH_THREADS];
  imcts_status status[IMCTS_MAX_SEARCH_THREADS];
  unsigned started, joined;
  unsigned refuse; /* a helper index `start` refuses (0: none) */
} Pool;

typedef struct {
  Pool *pool;
  uint32_t index;
} Arg;

static Arg args[IMCTS_MAX_SEARCH_THREADS];

static void *worker_main(void *p) {
  Arg *a = p;
  a->pool->status[a->index] = imcts_search_worker(a->pool->work[a->index], a->index);
  return NULL;
}

static int32_t start(void *ctx, const imcts_work *work, uint32_t index) {
  Pool *pool = ctx;
  if (index == pool->refuse) return 1;
  pool->work[index] = work;
  pool->status[index] = IMCTS_STATUS_PANIC; /* overwritten by the worker */
  args[index].pool = pool;
  args[index].index = index;
  if (pthread_create(&pool->thread[index], NULL, worker_main, &args[index]) != 0) return 1;
  pool->started++;
  return 0;
}

static void join(void *ctx, uint32_t index) {
  Pool *pool = ctx;
  pthread_join(pool->thread[index], NULL);
  pool->joined++;
  CHECK(pool->status[index] == IMCTS_STATUS_OK, "worker %u: %s", index,
        imcts_status_str(pool->status[index]));
}

typedef struct {
  void *mem;
  imcts_engine *engine;
} Engine;

static Engine engine_new(imcts_game game, size_t nodes) {
  Engine e = {0};
  size_t len = 0, align = 0;
  CHECK(imcts_engine_size(game, nodes, &len) == IMCTS_STATUS_OK, "size");
  CHECK(imcts_engine_align(&align) == IMCTS_STATUS_OK, "align");
  e.mem = aligned_alloc(align, (len + align - 1) / align * align);
  imcts_status s = imcts_engine_init(e.mem, len, game, nodes, &e.engine);
  CHECK(s == IMCTS_STATUS_OK, "init: %s", imcts_status_str(s));
  return e;
}

static imcts_config config_of(imcts_game game, const char *spec) {
  imcts_config cfg;
  imcts_status s = imcts_config_parse(game, spec, strlen(spec), &cfg);
  CHECK(s == IMCTS_STATUS_OK, "parse %s: %s", spec, imcts_status_str(s));
  return cfg;
}

static imcts_budget sims(uint64_t n) {
  imcts_budget b;
  memset(&b, 0, sizeof b);
  b.simulations = n;
  return b;
}

static imcts_threads pthreads_of(Pool *pool, uint32_t count) {
  imcts_threads t;
  memset(pool, 0, sizeof *pool);
  t.count = count;
  t.virtual_loss = 1;
  t.start = start;
  t.join = join;
  t.ctx = pool;
  return t;
}

/* Sum of the root children's visits (every simulation passes exactly one). */
static uint64_t root_visits(imcts_engine *e) {
  static imcts_child children[256];
  size_t n = 0;
  imcts_status s = imcts_engine_root_children(e, children, 256, &n);
  CHECK(s == IMCTS_STATUS_OK, "children: %s", imcts_status_str(s));
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) sum += children[i].visits;
  return sum;
}

/* Four pthreads, a simulation budget: every simulation is counted once, the move is legal. */
static void four_threads_count_every_simulation(void) {
  Engine e = engine_new(IMCTS_GAME_BREAKTHROUGH, 400000);
  imcts_config cfg = config_of(IMCTS_GAME_BREAKTHROUGH, "mcts(im0.4,efLH)");
  imcts_budget b = sims(20000);
  Pool pool;
  imcts_threads t = pthreads_of(&pool, 4);
  imcts_result r;
  imcts_status s = imcts_engine_search_threads(e.engine, &cfg, &b, &t, &r);
  CHECK(s == IMCTS_STATUS_OK, "search: %s", imcts_status_str(s));
  CHECK(pool.started == 3 && pool.joined == 3, "started %u joined %u", pool.started,
        pool.joined);
  CHECK(r.simulations == 20000, "simulations %llu", (unsigned long long)r.simulations);
  CHECK(root_visits(e.engine) == 20000, "root children visits %llu",
        (unsigned long long)root_visits(e.engine));
  s = imcts_engine_play(e.engine, r.best_move, r.best_move_len);
  CHECK(s == IMCTS_STATUS_OK, "play %s: %s", r.best_move, imcts_status_str(s));
  printf("4 pthreads: %s after %llu simulations\n", r.best_move,
         (unsigned long long)r.simulations);
  free(e.mem);
}

/* A thread the host cannot start is skipped; the search still runs its whole budget. */
static void a_refused_thread_is_skipped(void) {
  Engine e = engine_new(IMCTS_GAME_KALAH, 200000);
  imcts_config cfg = config_of(IMCTS_GAME_KALAH, "mcts(fet4)");
  imcts_budget b = sims(5000);
  Pool pool;
  imcts_threads t = pthreads_of(&pool, 3);
  pool.refuse = 2;
  imcts_result r;
  imcts_status s = imcts_engine_search_threads(e.engine, &cfg, &b, &t, &r);
  CHECK(s == IMCTS_STATUS_OK, "search: %s", imcts_status_str(s));
  CHECK(pool.started == 1 && pool.joined == 1, "started %u joined %u", pool.started,
        pool.joined);
  CHECK(r.simulations == 5000, "simulations %llu", (unsigned long long)r.simulations);
  CHECK(imcts_engine_play(e.engine, r.best_move, r.best_move_len) == IMCTS_STATUS_OK, "play");
  free(e.mem);
}

/* With tree reuse the subtree of the played move carries over between threaded searches. */
static void tree_reuse_across_threaded_searches(void) {
  Engine e = engine_new(IMCTS_GAME_BREAKTHROUGH, 400000);
  imcts_config cfg = config_of(IMCTS_GAME_BREAKTHROUGH, "mcts(ipp,im0.4,reuse)");
  imcts_budget b = sims(4000);
  for (int ply = 0; ply < 6; ply++) {
    Pool pool;
    imcts_threads t = pthreads_of(&pool, 2);
    imcts_result r;
    imcts_status s = imcts_engine_search_threads(e.engine, &cfg, &b, &t, &r);
    CHECK(s == IMCTS_STATUS_OK, "ply %d: %s", ply, imcts_status_str(s));
    CHECK(r.simulations == 4000, "ply %d: %llu", ply, (unsigned long long)r.simulations);
    /* The root's children hold this search's simulations plus the reused subtree's. */
    CHECK(root_visits(e.engine) >= 4000, "ply %d: %llu", ply,
          (unsigned long long)root_visits(e.engine));
    s = imcts_engine_play(e.engine, r.best_move, r.best_move_len);
    CHECK(s == IMCTS_STATUS_OK, "ply %d play %s: %s", ply, r.best_move, imcts_status_str(s));
  }
  free(e.mem);
}

/* Tic-Tac-Toe positions: the threaded solver proves what the single-threaded one proves. */
static void proofs_agree_on_tic_tac_toe(void) {
  const char *positions[] = {"X../.O./... x", "XO./.X./... o", "X.O/.../... x", "XX./OO./... x",
                             ".../.X./... o"};
  imcts_config cfg = config_of(IMCTS_GAME_TICTACTOE, "mcts");
  imcts_budget b = sims(200000);
  for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
    Engine one = engine_new(IMCTS_GAME_TICTACTOE, 100000);
    Engine many = engine_new(IMCTS_GAME_TICTACTOE, 100000);
    const char *p = positions[i];
    CHECK(imcts_engine_set_position(one.engine, p, strlen(p)) == IMCTS_STATUS_OK, "%s", p);
    CHECK(imcts_engine_set_position(many.engine, p, strlen(p)) == IMCTS_STATUS_OK, "%s", p);
    imcts_result r1, r4;
    CHECK(imcts_engine_search(one.engine, &cfg, &b, &r1) == IMCTS_STATUS_OK, "search");
    Pool pool;
    imcts_threads t = pthreads_of(&pool, 4);
    CHECK(imcts_engine_search_threads(many.engine, &cfg, &b, &t, &r4) == IMCTS_STATUS_OK,
          "threaded search");
    CHECK(r1.stop == IMCTS_STOP_PROVEN && r4.stop == IMCTS_STOP_PROVEN, "%s: stops %u %u", p,
          r1.stop, r4.stop);
    CHECK(r1.proven == r4.proven, "%s: proven %u (1 thread) vs %u (4)", p, r1.proven,
          r4.proven);
    free(one.mem);
    free(many.mem);
  }
}

/* One thread is imcts_engine_search exactly; the library's own threads work without callbacks;
 * bad thread descriptions are refused before anything changes. */
static void one_thread_own_threads_and_errors(void) {
  Engine a = engine_new(IMCTS_GAME_BREAKTHROUGH, 200000);
  Engine b = engine_new(IMCTS_GAME_BREAKTHROUGH, 200000);
  imcts_config cfg = config_of(IMCTS_GAME_BREAKTHROUGH, "mcts(ipp)");
  imcts_budget budget = sims(3000);
  imcts_threads one;
  memset(&one, 0, sizeof one);
  one.count = 1;
  imcts_result ra, rb;
  CHECK(imcts_engine_search(a.engine, &cfg, &budget, &ra) == IMCTS_STATUS_OK, "search");
  CHECK(imcts_engine_search_threads(b.engine, &cfg, &budget, &one, &rb) == IMCTS_STATUS_OK,
        "one thread");
  CHECK(strcmp(ra.best_move, rb.best_move) == 0 && ra.value == rb.value &&
            ra.nodes == rb.nodes,
        "one thread differs: %s %f %llu vs %s %f %llu", ra.best_move, ra.value,
        (unsigned long long)ra.nodes, rb.best_move, rb.value, (unsigned long long)rb.nodes);

  imcts_threads own = one;
  own.count = 3;
  CHECK(imcts_engine_search_threads(b.engine, &cfg, &budget, &own, &rb) == IMCTS_STATUS_OK,
        "library threads");
  CHECK(rb.simulations == 3000, "library threads: %llu", (unsigned long long)rb.simulations);

  imcts_result untouched;
  memset(&untouched, 0x5a, sizeof untouched);
  imcts_result out = untouched;
  Pool pool;
  imcts_threads bad = pthreads_of(&pool, 0);
  CHECK(imcts_engine_search_threads(b.engine, &cfg, &budget, &bad, &out) ==
            IMCTS_STATUS_BAD_THREADS,
        "count 0");
  bad.count = IMCTS_MAX_SEARCH_THREADS + 1;
  CHECK(imcts_engine_search_threads(b.engine, &cfg, &budget, &bad, &out) ==
            IMCTS_STATUS_BAD_THREADS,
        "count too large");
  bad.count = 2;
  bad.join = NULL;
  CHECK(imcts_engine_search_threads(b.engine, &cfg, &budget, &bad, &out) ==
            IMCTS_STATUS_BAD_THREADS,
        "start without join");
  CHECK(imcts_engine_search_threads(b.engine, &cfg, &budget, NULL, &out) ==
            IMCTS_STATUS_NULL_POINTER,
        "NULL threads");
  CHECK(memcmp(&out, &untouched, sizeof out) == 0, "a refused call wrote its result");
  CHECK(imcts_search_worker(NULL, 1) == IMCTS_STATUS_NULL_POINTER, "NULL work");
  free(a.mem);
  free(b.mem);
}

/* Root parallelism (a tree per thread, merged at the root) from pthreads: every simulation
 * counted, a legal move, the same search twice with a simulation budget; an unknown mode is
 * refused. */
static void root_parallel_from_pthreads(void) {
  imcts_config cfg = config_of(IMCTS_GAME_BREAKTHROUGH, "mcts(im0.4,efLH)");
  imcts_budget b = sims(9001);
  imcts_result r[2];
  static imcts_child children[2][256];
  size_t n[2] = {0, 0};
  for (int run = 0; run < 2; run++) {
    Engine e = engine_new(IMCTS_GAME_BREAKTHROUGH, 400000);
    Pool pool;
    imcts_threads t = pthreads_of(&pool, 3);
    imcts_status s =
        imcts_engine_search_parallel(e.engine, &cfg, &b, &t, IMCTS_PARALLEL_ROOT, &r[run]);
    CHECK(s == IMCTS_STATUS_OK, "root search: %s", imcts_status_str(s));
    CHECK(pool.started == 2 && pool.joined == 2, "started %u joined %u", pool.started,
          pool.joined);
    CHECK(r[run].simulations == 9001, "simulations %llu",
          (unsigned long long)r[run].simulations);
    CHECK(root_visits(e.engine) == 9001, "root children visits %llu",
          (unsigned long long)root_visits(e.engine));
    CHECK(imcts_engine_root_children(e.engine, children[run], 256, &n[run]) == IMCTS_STATUS_OK,
          "children");
    CHECK(imcts_engine_play(e.engine, r[run].best_move, r[run].best_move_len) ==
              IMCTS_STATUS_OK,
          "play %s", r[run].best_move);
    if (run == 1) {
      imcts_result out;
      CHECK(imcts_engine_search_parallel(e.engine, &cfg, &b, &t, 2, &out) ==
                IMCTS_STATUS_BAD_THREADS,
            "unknown mode");
    }
    free(e.mem);
  }
  CHECK(strcmp(r[0].best_move, r[1].best_move) == 0 && r[0].value == r[1].value, "%s vs %s",
        r[0].best_move, r[1].best_move);
  CHECK(n[0] == n[1] && n[0] > 0, "children %zu vs %zu", n[0], n[1]);
  for (size_t i = 0; i < n[0] && i < n[1]; i++) {
    const imcts_child *x = &children[0][i], *y = &children[1][i];
    CHECK(strcmp(x->mv, y->mv) == 0 && x->visits == y->visits && x->mean == y->mean &&
              x->proven == y->proven,
          "child %zu: %s %u vs %s %u", i, x->mv, x->visits, y->mv, y->visits);
  }
}

/* The spec twin of imcts_engine_search_parallel: a spec the struct carries searches as the
 * struct does (root parallelism with a simulation budget repeats exactly); a spec the struct
 * cannot carry (bl' with random ties: Breakthrough breaks ties as the paper's code does)
 * searches here; a bad spec or a bad mode is refused without writing the result. */
static void parallel_search_by_spec(void) {
  const char *carried = "mcts(im0.4,efLH)";
  imcts_config cfg = config_of(IMCTS_GAME_BREAKTHROUGH, carried);
  imcts_budget b = sims(6001);
  imcts_result by_struct, by_spec, r;
  Engine e = engine_new(IMCTS_GAME_BREAKTHROUGH, 400000);
  Pool pool;
  imcts_threads t = pthreads_of(&pool, 2);
  CHECK(imcts_engine_search_parallel(e.engine, &cfg, &b, &t, IMCTS_PARALLEL_ROOT, &by_struct) ==
            IMCTS_STATUS_OK,
        "by struct");
  /* A second engine: the first's generator has moved on (an unchanged configuration does not
   * reseed). */
  Engine f = engine_new(IMCTS_GAME_BREAKTHROUGH, 400000);
  imcts_status s = imcts_engine_search_parallel_spec(f.engine, carried, strlen(carried), &b, &t,
                                                     IMCTS_PARALLEL_ROOT, &by_spec);
  CHECK(s == IMCTS_STATUS_OK, "by spec: %s", imcts_status_str(s));
  CHECK(strcmp(by_struct.best_move, by_spec.best_move) == 0 && by_struct.value == by_spec.value &&
            by_struct.simulations == by_spec.simulations,
        "struct %s vs spec %s", by_struct.best_move, by_spec.best_move);
  const char *preset = "mcts(efLH,bl',im0.6,random-ties)";
  imcts_config refused;
  CHECK(imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, preset, strlen(preset), &refused) ==
            IMCTS_STATUS_BAD_SPEC,
        "random ties parsed into the struct");
  s = imcts_engine_search_parallel_spec(e.engine, preset, strlen(preset), &b, &t,
                                        IMCTS_PARALLEL_TREE, &r);
  CHECK(s == IMCTS_STATUS_OK && r.simulations == 6001, "random ties by spec: %s, %llu simulations",
        imcts_status_str(s), (unsigned long long)r.simulations);
  imcts_result untouched, out;
  memset(&untouched, 0xab, sizeof untouched);
  out = untouched;
  CHECK(imcts_engine_search_parallel_spec(e.engine, "mcts(nope)", 10, &b, &t,
                                          IMCTS_PARALLEL_TREE, &out) == IMCTS_STATUS_BAD_SPEC,
        "bad spec");
  CHECK(imcts_engine_search_parallel_spec(e.engine, carried, strlen(carried), &b, &t, 2, &out) ==
            IMCTS_STATUS_BAD_THREADS,
        "unknown mode");
  CHECK(imcts_engine_search_parallel_spec(e.engine, NULL, 0, &b, &t, IMCTS_PARALLEL_TREE, &out) ==
            IMCTS_STATUS_NULL_POINTER,
        "NULL spec");
  CHECK(memcmp(&out, &untouched, sizeof out) == 0, "a refused call wrote its result");
  free(e.mem);
  free(f.mem);
}

int main(void) {
  four_threads_count_every_simulation();
  root_parallel_from_pthreads();
  parallel_search_by_spec();
  a_refused_thread_is_skipped();
  tree_reuse_across_threaded_searches();
  proofs_agree_on_tic_tac_toe();
  one_thread_own_threads_and_errors();
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
