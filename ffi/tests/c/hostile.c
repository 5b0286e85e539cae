/* Issue 13 from a hostile C host (built by ffi/tests/hosts.rs with ASan and UBSan):
 * over-long position strings, an engine in read-only memory behind the const entry points,
 * specs that parse but could not search, a clock that never advances, and error detail. */
#define _DEFAULT_SOURCE
#include "imcts.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int failures = 0;
#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                        \
      fprintf(stderr, "\n");                                               \
      failures++;                                                          \
    }                                                                      \
  } while (0)

typedef struct {
  void *mem;
  size_t len;
  imcts_engine *engine;
} Engine;

/* Page-aligned memory from mmap, so it can be made read-only. */
static Engine engine_new(imcts_game game, size_t nodes) {
  Engine e = {0};
  imcts_status s = imcts_engine_size(game, nodes, &e.len);
  CHECK(s == IMCTS_STATUS_OK, "size: %s", imcts_status_str(s));
  e.mem = mmap(NULL, e.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(e.mem != MAP_FAILED, "mmap");
  s = imcts_engine_init(e.mem, e.len, game, nodes, &e.engine);
  CHECK(s == IMCTS_STATUS_OK, "init: %s", imcts_status_str(s));
  return e;
}

static void engine_free(Engine *e) { munmap(e->mem, e->len); }

static char *repeat(const char *prefix, char c, size_t n, const char *suffix) {
  size_t p = strlen(prefix), q = strlen(suffix);
  char *s = malloc(p + n + q + 1);
  memcpy(s, prefix, p);
  memset(s + p, c, n);
  memcpy(s + p + n, suffix, q + 1);
  return s;
}

static void position_of(const imcts_engine *e, char *buf, size_t cap) {
  size_t len = 0;
  imcts_status s = imcts_engine_position(e, buf, cap, &len);
  CHECK(s == IMCTS_STATUS_OK, "position: %s", imcts_status_str(s));
}

/* Item 1: each over-long input of the issue is refused and leaves the engine unchanged. */
static void over_long_positions(void) {
  struct {
    imcts_game game;
    char *text;
  } cases[5];
  cases[0].game = IMCTS_GAME_BREAKTHROUGH; /* a rank of 8,193 '8's */
  cases[0].text = repeat("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/", '8', 8193, " w");
  cases[1].game = IMCTS_GAME_BREAKTHROUGH; /* a rank of 65,544 'P's */
  cases[1].text = repeat("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/", 'P', 65544, " w");
  cases[2].game = IMCTS_GAME_TICTACTOE; /* 65,536 '/' */
  cases[2].text = repeat("...", '/', 65536, " x");
  cases[3].game = IMCTS_GAME_GOMOKU; /* a megabyte of digits */
  cases[3].text = repeat("", '1', 1 << 20, " b");
  /* A Kalah row of 65,542 houses: "4,4,...,4/4,4,4,4,4,4/0-0 s". */
  {
    size_t n = 65542, i;
    char *s = malloc(2 * n + 64), *p = s;
    for (i = 0; i < n; i++) {
      *p++ = '4';
      *p++ = i + 1 < n ? ',' : '/';
    }
    strcpy(p, "4,4,4,4,4,4/0-0 s");
    cases[4].game = IMCTS_GAME_KALAH;
    cases[4].text = s;
  }
  for (int i = 0; i < 5; i++) {
    Engine e = engine_new(cases[i].game, 64);
    char before[600], after[600], why[128];
    size_t why_len = 0;
    position_of(e.engine, before, sizeof before);
    imcts_status s = imcts_engine_set_position(e.engine, cases[i].text, strlen(cases[i].text));
    CHECK(s == IMCTS_STATUS_BAD_POSITION, "case %d accepted: %s", i, imcts_status_str(s));
    position_of(e.engine, after, sizeof after);
    CHECK(strcmp(before, after) == 0, "case %d changed the engine", i);
    s = imcts_position_error(cases[i].game, cases[i].text, strlen(cases[i].text), why, sizeof why,
                             &why_len);
    CHECK(s == IMCTS_STATUS_OK && strcmp(why, "position is longer than 512 bytes") == 0,
          "case %d detail: %s", i, why);
    /* Exactly IMCTS_MAX_POSITION_LEN bytes (the start position padded) still parses. */
    char *padded = repeat("", ' ', IMCTS_MAX_POSITION_LEN - strlen(before), before);
    s = imcts_engine_set_position(e.engine, padded, strlen(padded));
    CHECK(s == IMCTS_STATUS_OK, "case %d: padded start refused: %s", i, imcts_status_str(s));
    free(padded);
    free(cases[i].text);
    engine_free(&e);
  }
  /* Detail for a short malformed position names the field. */
  char why[128];
  size_t why_len = 0;
  const char *bad = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPPP w";
  imcts_status s =
      imcts_position_error(IMCTS_GAME_BREAKTHROUGH, bad, strlen(bad), why, sizeof why, &why_len);
  CHECK(s == IMCTS_STATUS_OK && strcmp(why, "rank 8 has length 9, expected 8") == 0, "detail: %s",
        why);
  const char *good = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w";
  s = imcts_position_error(IMCTS_GAME_BREAKTHROUGH, good, strlen(good), why, sizeof why, &why_len);
  CHECK(s == IMCTS_STATUS_OK && why_len == 0, "valid position has detail: %s", why);
}

/* Item 2: the const entry points work on an engine in read-only memory. */
static void read_only_engine(void) {
  Engine e = engine_new(IMCTS_GAME_BREAKTHROUGH, 256);
  const char *mv = "a2-a3";
  CHECK(imcts_engine_play(e.engine, mv, strlen(mv)) == IMCTS_STATUS_OK, "play");
  CHECK(mprotect(e.mem, e.len, PROT_READ) == 0, "mprotect");
  const imcts_engine *ro = e.engine;
  char buf[1024];
  size_t len = 0, count = 0, history = 0;
  imcts_game game = 99;
  imcts_outcome outcome = 99;
  uint32_t player = 99;
  CHECK(imcts_engine_game(ro, &game) == IMCTS_STATUS_OK && game == IMCTS_GAME_BREAKTHROUGH, "game");
  CHECK(imcts_engine_position(ro, buf, sizeof buf, &len) == IMCTS_STATUS_OK, "position");
  CHECK(imcts_engine_legal_moves(ro, buf, sizeof buf, &len, &count) == IMCTS_STATUS_OK && count == 22,
        "legal moves: %zu", count);
  CHECK(imcts_engine_outcome(ro, &outcome) == IMCTS_STATUS_OK && outcome == IMCTS_OUTCOME_ONGOING,
        "outcome");
  CHECK(imcts_engine_side_to_move(ro, &player) == IMCTS_STATUS_OK && player == 1, "side");
  CHECK(imcts_engine_history_len(ro, &history) == IMCTS_STATUS_OK && history == 1, "history");
  CHECK(mprotect(e.mem, e.len, PROT_READ | PROT_WRITE) == 0, "mprotect back");
  engine_free(&e);
}

/* Item 3: specs that parse but could not search are refused by imcts_config_parse. */
static void specs_fail_at_parse_time(void) {
  const char *specs[] = {"mcts(pbnan)", "mcts(pbinf)",  "mcts(pb-inf)",      "mcts(pb1e39)",
                         "ab(depth65)", "ab(depth100)", "ab(depth4294967295)"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    imcts_config c;
    memset(&c, 0xAB, sizeof c);
    imcts_config before = c;
    imcts_status s = imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, specs[i], strlen(specs[i]), &c);
    CHECK(s == IMCTS_STATUS_BAD_SPEC, "%s: %s", specs[i], imcts_status_str(s));
    CHECK(memcmp(&c, &before, sizeof c) == 0, "%s: the config was written", specs[i]);
    char why[160];
    size_t len = 0;
    s = imcts_config_parse_error(IMCTS_GAME_BREAKTHROUGH, specs[i], strlen(specs[i]), why,
                                 sizeof why, &len);
    CHECK(s == IMCTS_STATUS_OK && (strstr(why, "finite") || strstr(why, "from 1 to 64")),
          "%s detail: %s", specs[i], why);
  }
  /* A label the struct has no field for is refused, and the detail names it. */
  const char *uncarried = "mcts(ipp,im0.4,text-ipp)";
  imcts_config c;
  CHECK(imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, uncarried, strlen(uncarried), &c) ==
            IMCTS_STATUS_BAD_SPEC,
        "%s parsed", uncarried);
  char why[160];
  size_t len = 0;
  CHECK(imcts_config_parse_error(IMCTS_GAME_BREAKTHROUGH, uncarried, strlen(uncarried), why,
                                 sizeof why, &len) == IMCTS_STATUS_OK &&
            strstr(why, "text-ipp") && strstr(why, "cannot carry") &&
            strstr(why, "imcts_engine_search_spec"),
        "%s detail: %s", uncarried, why);
  /* So is a tie-break other than the game's: Breakthrough breaks ties as the paper's code
   * does, so its presets parse and random-ties does not; Kalah the other way round. */
  const char *preset = "mcts(efLH,bl',im0.6)";
  CHECK(imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, preset, strlen(preset), &c) ==
                IMCTS_STATUS_OK &&
            c.fixed_cutoff == 20 && c.node_priors == 10,
        "%s", preset);
  const char *random_ties = "mcts(efLH,bl',im0.6,random-ties)";
  CHECK(imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, random_ties, strlen(random_ties), &c) ==
            IMCTS_STATUS_BAD_SPEC,
        "%s parsed", random_ties);
  CHECK(imcts_config_parse_error(IMCTS_GAME_BREAKTHROUGH, random_ties, strlen(random_ties), why,
                                 sizeof why, &len) == IMCTS_STATUS_OK &&
            strstr(why, "random-ties") && strstr(why, "cannot carry"),
        "%s detail: %s", random_ties, why);
  const char *kalah_ties = "mcts(fet4,im0.3,code-ties)";
  CHECK(imcts_config_parse(IMCTS_GAME_KALAH, kalah_ties, strlen(kalah_ties), &c) ==
            IMCTS_STATUS_BAD_SPEC,
        "%s parsed", kalah_ties);
  const char *ok = "mcts(ipp,im0.4)";
  imcts_status s =
      imcts_config_parse_error(IMCTS_GAME_LOA, ok, strlen(ok), why, sizeof why, &len);
  CHECK(s == IMCTS_STATUS_OK && len == 0, "valid spec has detail: %s", why);
  /* Too small a buffer: the length needed, nothing written. */
  const char *bad = "mcts(zzz)";
  s = imcts_config_parse_error(IMCTS_GAME_KALAH, bad, strlen(bad), NULL, 0, &len);
  CHECK(s == IMCTS_STATUS_BUFFER_TOO_SMALL && len > 0, "length query: %s", imcts_status_str(s));
}

/* Item 4: a clock that never advances ends a time-only search instead of hanging. */
static uint64_t frozen_clock(void *ctx) {
  (*(uint64_t *)ctx)++;
  return 1000000;
}

static void frozen_clock_stops(imcts_game game, size_t nodes) {
  Engine e = engine_new(game, nodes);
  imcts_config c;
  CHECK(imcts_config_default(game, &c) == IMCTS_STATUS_OK, "default");
  uint64_t reads = 0;
  imcts_budget b = {0, 0, 5000, frozen_clock, &reads};
  imcts_result r;
  imcts_status s = imcts_engine_search(e.engine, &c, &b, &r);
  CHECK(s == IMCTS_STATUS_OK, "search: %s", imcts_status_str(s));
  CHECK(r.stop == IMCTS_STOP_TIME, "stop %u", r.stop);
  CHECK(r.best_move_len > 0 && r.elapsed_us == 0, "move %s, elapsed %llu", r.best_move,
        (unsigned long long)r.elapsed_us);
  CHECK(reads <= (uint64_t)IMCTS_FROZEN_CLOCK_READS + 3, "%llu reads",
        (unsigned long long)reads);
  printf("frozen clock, game %u: stop %u after %llu reads, %llu simulations\n", game, r.stop,
         (unsigned long long)reads, (unsigned long long)r.simulations);
  engine_free(&e);
}

/* A spec the config struct cannot carry searches through imcts_engine_search_spec. */
static void search_by_spec(void) {
  Engine e = engine_new(IMCTS_GAME_LOA, 20000);
  const char *spec = "mcts(fet0,im0.6,c0.3,ep10)";
  imcts_budget b = {1000, 0, 0, NULL, NULL};
  imcts_result r;
  imcts_status s = imcts_engine_search_spec(e.engine, spec, strlen(spec), &b, &r);
  CHECK(s == IMCTS_STATUS_OK && r.simulations == 1000 && r.best_move_len > 0, "%s: %s", spec,
        imcts_status_str(s));
  const char *bad = "mcts(np,ep)";
  s = imcts_engine_search_spec(e.engine, bad, strlen(bad), &b, &r);
  CHECK(s == IMCTS_STATUS_BAD_SPEC, "%s: %s", bad, imcts_status_str(s));
  engine_free(&e);
}

int main(void) {
  over_long_positions();
  read_only_engine();
  specs_fail_at_parse_time();
  search_by_spec();
  frozen_clock_stops(IMCTS_GAME_BREAKTHROUGH, 4096);
  frozen_clock_stops(IMCTS_GAME_TICTACTOE, 64);
  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
