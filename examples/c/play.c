/*
 * imcts from C99: two MCTS configurations play a short game of Breakthrough, then every error
 * path of the ABI is walked. Built and run by ffi/tests/hosts.rs with
 *   gcc -std=c99 -Wall -Wextra -Werror -pedantic -fsanitize=address,undefined
 * Exit status 0 and the line "all checks passed" mean success.
 */
#include "imcts.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

/* Records one check; prints the failing line. */
#define CHECK(cond)                                                              \
  do {                                                                           \
    checks++;                                                                    \
    if (!(cond)) {                                                               \
      failures++;                                                                \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                            \
  } while (0)

#define EXPECT_STATUS(call, want)                                                      \
  do {                                                                                 \
    imcts_status got_ = (call);                                                        \
    checks++;                                                                          \
    if (got_ != (want)) {                                                              \
      failures++;                                                                      \
      fprintf(stderr, "%s:%d: %s returned %u (%s), expected %s\n", __FILE__, __LINE__, \
              #call, (unsigned)got_, imcts_status_str(got_), #want);                   \
    }                                                                                  \
  } while (0)

/* An engine and the heap block holding it (the ABI never allocates; the host does). */
typedef struct {
  void *block;
  imcts_engine *engine;
} owned_engine;

/* Allocates aligned memory for `nodes` search nodes and initialises an engine in it. */
static imcts_status engine_new(imcts_game game, size_t nodes, owned_engine *out) {
  size_t size = 0, align = 0;
  imcts_status st = imcts_engine_size(game, nodes, &size);
  if (st) return st;
  st = imcts_engine_align(&align);
  if (st) return st;
  out->block = malloc(size + align - 1);
  if (!out->block) return IMCTS_STATUS_MEMORY_TOO_SMALL;
  /* C99 has no aligned_alloc: round the pointer up by hand. */
  uintptr_t p = ((uintptr_t)out->block + align - 1) & ~(uintptr_t)(align - 1);
  st = imcts_engine_init((void *)p, size, game, nodes, &out->engine);
  if (st) {
    free(out->block);
    out->block = NULL;
  }
  return st;
}

static void engine_free(owned_engine *e) {
  free(e->block);
  e->block = NULL;
  e->engine = NULL;
}

static imcts_status play(imcts_engine *e, const char *mv) {
  return imcts_engine_play(e, mv, strlen(mv));
}

static imcts_status parse(const char *spec, imcts_config *out) {
  return imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, spec, strlen(spec), out);
}

/* Whether `mv` is one of the space-separated moves of `list`. */
static int contains_move(const char *list, const char *mv) {
  size_t n = strlen(mv);
  const char *p = list;
  while (*p) {
    const char *end = strchr(p, ' ');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, mv, n) == 0) return 1;
    if (!end) break;
    p = end + 1;
  }
  return 0;
}

static imcts_budget simulations(uint64_t n) {
  imcts_budget b;
  memset(&b, 0, sizeof b);
  b.simulations = n;
  return b;
}

/* Two players, each with its own engine tracking the game; tree reuse across moves. */
static void play_game(void) {
  const char *specs[2] = {"mcts(ipp,im0.4,reuse)", "mcts(ipp,reuse)"};
  owned_engine players[2];
  imcts_config configs[2];
  int i, ply;
  for (i = 0; i < 2; i++) {
    EXPECT_STATUS(engine_new(IMCTS_GAME_BREAKTHROUGH, 20000, &players[i]), IMCTS_STATUS_OK);
    EXPECT_STATUS(parse(specs[i], &configs[i]), IMCTS_STATUS_OK);
  }
  if (failures) return;
  for (ply = 0; ply < 16; ply++) {
    imcts_outcome outcome = 0;
    uint32_t side = 0;
    imcts_result r;
    imcts_budget budget = simulations(300);
    EXPECT_STATUS(imcts_engine_outcome(players[0].engine, &outcome), IMCTS_STATUS_OK);
    if (outcome != IMCTS_OUTCOME_ONGOING) break;
    EXPECT_STATUS(imcts_engine_side_to_move(players[0].engine, &side), IMCTS_STATUS_OK);
    EXPECT_STATUS(imcts_engine_search(players[side].engine, &configs[side], &budget, &r),
                  IMCTS_STATUS_OK);
    printf("ply %2d %s %-6s value %+.3f sims %llu nodes %llu\n", ply + 1, specs[side],
           r.best_move, r.value, (unsigned long long)r.simulations,
           (unsigned long long)r.nodes);
    for (i = 0; i < 2; i++) EXPECT_STATUS(play(players[i].engine, r.best_move), IMCTS_STATUS_OK);
  }
  {
    char pos[256];
    size_t len = 0;
    EXPECT_STATUS(imcts_engine_position(players[0].engine, pos, sizeof pos, &len),
                  IMCTS_STATUS_OK);
    CHECK(len == strlen(pos));
    printf("final %s\n", pos);
  }
  for (i = 0; i < 2; i++) engine_free(&players[i]);
}

static void error_paths(void) {
  owned_engine e;
  imcts_config config;
  imcts_result result;
  imcts_budget budget = simulations(50);
  char small[4] = {'#', '#', '#', '#'};
  char moves[1024];
  size_t len = 0, count = 0, size = 0, align = 0;

  EXPECT_STATUS(engine_new(IMCTS_GAME_BREAKTHROUGH, 1000, &e), IMCTS_STATUS_OK);
  if (failures) return;
  EXPECT_STATUS(parse("mcts(ipp,im0.4)", &config), IMCTS_STATUS_OK);

  /* NULL pointers. */
  EXPECT_STATUS(imcts_engine_play(NULL, "a2-a3", 5), IMCTS_STATUS_NULL_POINTER);
  EXPECT_STATUS(imcts_engine_play(e.engine, NULL, 0), IMCTS_STATUS_NULL_POINTER);
  EXPECT_STATUS(imcts_engine_search(e.engine, NULL, &budget, &result), IMCTS_STATUS_NULL_POINTER);
  EXPECT_STATUS(imcts_engine_size(IMCTS_GAME_BREAKTHROUGH, 10, NULL), IMCTS_STATUS_NULL_POINTER);
  EXPECT_STATUS(imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, NULL, 0, &config),
                IMCTS_STATUS_NULL_POINTER);

  /* Unknown games. */
  EXPECT_STATUS(imcts_engine_size(99, 10, &size), IMCTS_STATUS_UNKNOWN_GAME);
  EXPECT_STATUS(imcts_config_default(42, &config), IMCTS_STATUS_UNKNOWN_GAME);

  /* A short buffer reports the length needed and writes nothing else. */
  EXPECT_STATUS(imcts_engine_position(e.engine, small, sizeof small, &len),
                IMCTS_STATUS_BUFFER_TOO_SMALL);
  CHECK(len > sizeof small);
  CHECK(small[0] == '#' && small[3] == '#');
  EXPECT_STATUS(imcts_engine_legal_moves(e.engine, NULL, 0, &len, &count),
                IMCTS_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 0);
  EXPECT_STATUS(imcts_engine_legal_moves(e.engine, moves, sizeof moves, &len, &count),
                IMCTS_STATUS_OK);
  CHECK(count == 22 && len == strlen(moves));

  /* Malformed, illegal and non-UTF-8 moves leave the position alone. */
  EXPECT_STATUS(play(e.engine, "zz"), IMCTS_STATUS_BAD_MOVE);
  EXPECT_STATUS(play(e.engine, "a2-a5"), IMCTS_STATUS_ILLEGAL_MOVE); /* well formed */
  EXPECT_STATUS(play(e.engine, "a2+a3"), IMCTS_STATUS_BAD_MOVE);
  EXPECT_STATUS(play(e.engine, "a7-a6"), IMCTS_STATUS_ILLEGAL_MOVE);
  EXPECT_STATUS(play(e.engine, "\xff\xfe"), IMCTS_STATUS_INVALID_UTF8);
  EXPECT_STATUS(imcts_engine_set_position(e.engine, "nonsense", 8), IMCTS_STATUS_BAD_POSITION);

  /* Nothing to undo on a fresh engine; one move undoes once. */
  EXPECT_STATUS(imcts_engine_undo(e.engine), IMCTS_STATUS_NOTHING_TO_UNDO);
  EXPECT_STATUS(play(e.engine, "a2-a3"), IMCTS_STATUS_OK);
  EXPECT_STATUS(imcts_engine_undo(e.engine), IMCTS_STATUS_OK);
  EXPECT_STATUS(imcts_engine_undo(e.engine), IMCTS_STATUS_NOTHING_TO_UNDO);

  /* Bad specs and configurations. */
  EXPECT_STATUS(parse("mcts(nope)", &config), IMCTS_STATUS_BAD_SPEC);
  EXPECT_STATUS(parse("mcts(im1.5)", &config), IMCTS_STATUS_BAD_SPEC);
  EXPECT_STATUS(imcts_config_parse(IMCTS_GAME_KALAH, "mcts(ipp)", 9, &config),
                IMCTS_STATUS_BAD_SPEC);
  EXPECT_STATUS(parse("mcts(ipp,im0.4)", &config), IMCTS_STATUS_OK);
  config.alpha = 2.0f;
  EXPECT_STATUS(imcts_engine_search(e.engine, &config, &budget, &result), IMCTS_STATUS_BAD_CONFIG);
  config.alpha = 0.4f;
  budget.time_us = 1000; /* a time limit needs a clock */
  EXPECT_STATUS(imcts_engine_search(e.engine, &config, &budget, &result), IMCTS_STATUS_BAD_BUDGET);
  budget.time_us = 0;

  /* Engine memory that is too small or misaligned. */
  {
    owned_engine tiny;
    imcts_engine *handle = NULL;
    EXPECT_STATUS(imcts_engine_size(IMCTS_GAME_BREAKTHROUGH, 100, &size), IMCTS_STATUS_OK);
    EXPECT_STATUS(imcts_engine_align(&align), IMCTS_STATUS_OK);
    EXPECT_STATUS(engine_new(IMCTS_GAME_BREAKTHROUGH, 100, &tiny), IMCTS_STATUS_OK);
    EXPECT_STATUS(imcts_engine_init(tiny.engine, size - 1, IMCTS_GAME_BREAKTHROUGH, 100, &handle),
                  IMCTS_STATUS_MEMORY_TOO_SMALL);
    if (align > 1) {
      EXPECT_STATUS(imcts_engine_init((char *)tiny.engine + 1, size - align,
                                      IMCTS_GAME_BREAKTHROUGH, 10, &handle),
                    IMCTS_STATUS_MISALIGNED);
    }
    CHECK(handle == NULL);
    engine_free(&tiny);
  }

  /* A pool too small for the budget still gives a legal move. */
  {
    owned_engine full;
    EXPECT_STATUS(engine_new(IMCTS_GAME_BREAKTHROUGH, 60, &full), IMCTS_STATUS_OK);
    budget.simulations = 500;
    EXPECT_STATUS(imcts_engine_search(full.engine, &config, &budget, &result), IMCTS_STATUS_OK);
    CHECK(result.pool_full == 1);
    CHECK(contains_move(moves, result.best_move));
    engine_free(&full);
  }

  /* The position never changed through all of the above. */
  {
    size_t count2 = 0;
    char again[1024];
    EXPECT_STATUS(imcts_engine_legal_moves(e.engine, again, sizeof again, &len, &count2),
                  IMCTS_STATUS_OK);
    CHECK(strcmp(again, moves) == 0 && count2 == count);
  }
  CHECK(strcmp(imcts_status_str(IMCTS_STATUS_ILLEGAL_MOVE), "illegal move") == 0);
  CHECK(strcmp(imcts_status_str(12345), "unknown status") == 0);
  engine_free(&e);
}

int main(void) {
  printf("imcts %s (abi %u)\n", imcts_version(), (unsigned)imcts_abi_version());
  CHECK(imcts_abi_version() == IMCTS_ABI_VERSION);
  play_game();
  error_paths();
  if (failures) {
    printf("%d of %d checks failed\n", failures, checks);
    return 1;
  }
  printf("all checks passed (%d)\n", checks);
  return 0;
}
