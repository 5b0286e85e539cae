#!/usr/bin/env python3
"""imcts from Python through ctypes: load the shared library, search a Breakthrough position.

    python3 examples/python/search.py [path/to/libimcts_ffi.so]

Without an argument the library is looked for in target/release/ (build it with
`cargo build -p imcts-ffi --release`). Run by ffi/tests/hosts.rs; prints `bestmove <move>`.
The structs below mirror include/imcts.h field by field.
"""
import ctypes
import os
import sys
import time

IMCTS_STATUS_OK = 0
IMCTS_STATUS_ILLEGAL_MOVE = 7
IMCTS_STATUS_BUFFER_TOO_SMALL = 11
IMCTS_GAME_BREAKTHROUGH = 0
IMCTS_MOVE_CAPACITY = 32
STOP_NAMES = ["iterations", "nodes", "time", "proven", "single-move", "pool-full",
              "game-over", "max-depth", "visit-limit"]


class Config(ctypes.Structure):
    _fields_ = [
        ("algorithm", ctypes.c_uint32), ("uct_c", ctypes.c_float), ("alpha", ctypes.c_float),
        ("value_mode", ctypes.c_uint32), ("playout", ctypes.c_uint32),
        ("epsilon_greedy", ctypes.c_float), ("fixed_cutoff", ctypes.c_int32),
        ("dynamic_cutoff", ctypes.c_float), ("det_interval", ctypes.c_uint32),
        ("max_playout_plies", ctypes.c_uint32), ("node_priors", ctypes.c_uint32),
        ("progressive_bias", ctypes.c_float), ("max_backprop", ctypes.c_uint32),
        ("expansion", ctypes.c_uint32), ("solver", ctypes.c_uint8),
        ("reuse_tree", ctypes.c_uint8), ("stop_when_full", ctypes.c_uint8),
        ("seed", ctypes.c_uint64), ("eval", ctypes.c_uint32), ("ab_max_depth", ctypes.c_uint32),
        ("ab_tt_entries", ctypes.c_uint64), ("bbq_best", ctypes.c_uint8),
        ("bbq_quick", ctypes.c_uint8), ("bbq_big", ctypes.c_uint8),
        ("bbq_max_depth", ctypes.c_uint32), ("bbq_dist", ctypes.c_uint32),
        ("bbq_playouts", ctypes.c_uint32),
    ]


CLOCK = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_void_p)


class Budget(ctypes.Structure):
    _fields_ = [
        ("simulations", ctypes.c_uint64), ("nodes", ctypes.c_uint64),
        ("time_us", ctypes.c_uint64), ("clock", CLOCK), ("clock_ctx", ctypes.c_void_p),
    ]


class Result(ctypes.Structure):
    _fields_ = [
        ("best_move", ctypes.c_char * IMCTS_MOVE_CAPACITY), ("best_move_len", ctypes.c_uint32),
        ("value", ctypes.c_float), ("simulations", ctypes.c_uint64),
        ("nodes", ctypes.c_uint64), ("elapsed_us", ctypes.c_uint64),
        ("stop", ctypes.c_uint32), ("proven", ctypes.c_uint32), ("depth", ctypes.c_uint32),
        ("pool_full", ctypes.c_uint8),
    ]


def load(path):
    lib = ctypes.CDLL(path)
    size_p = ctypes.POINTER(ctypes.c_size_t)
    lib.imcts_version.restype = ctypes.c_char_p
    lib.imcts_status_str.restype = ctypes.c_char_p
    lib.imcts_status_str.argtypes = [ctypes.c_uint32]
    for name, args in {
        "imcts_engine_size": [ctypes.c_uint32, ctypes.c_size_t, size_p],
        "imcts_engine_align": [size_p],
        "imcts_engine_init": [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint32,
                              ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)],
        "imcts_config_parse": [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t,
                               ctypes.POINTER(Config)],
        "imcts_engine_play": [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t],
        "imcts_engine_position": [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, size_p],
        "imcts_engine_search": [ctypes.c_void_p, ctypes.POINTER(Config), ctypes.POINTER(Budget),
                                ctypes.POINTER(Result)],
    }.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = ctypes.c_uint32
    return lib


class Engine:
    """An engine in a ctypes buffer that this object keeps alive."""

    def __init__(self, lib, game, nodes):
        self.lib = lib
        size, align = ctypes.c_size_t(), ctypes.c_size_t()
        self.check(lib.imcts_engine_size(game, nodes, ctypes.byref(size)))
        self.check(lib.imcts_engine_align(ctypes.byref(align)))
        self.block = ctypes.create_string_buffer(size.value + align.value - 1)
        start = ctypes.addressof(self.block)
        aligned = (start + align.value - 1) & ~(align.value - 1)
        self.handle = ctypes.c_void_p()
        self.check(lib.imcts_engine_init(aligned, size.value, game, nodes,
                                         ctypes.byref(self.handle)))

    def check(self, status):
        if status != IMCTS_STATUS_OK:
            raise RuntimeError(self.lib.imcts_status_str(status).decode())

    def play(self, move):
        data = move.encode()
        return self.lib.imcts_engine_play(self.handle, data, len(data))

    def position(self):
        length = ctypes.c_size_t()
        st = self.lib.imcts_engine_position(self.handle, None, 0, ctypes.byref(length))
        assert st == IMCTS_STATUS_BUFFER_TOO_SMALL, st
        buf = ctypes.create_string_buffer(length.value + 1)
        self.check(self.lib.imcts_engine_position(self.handle, buf, len(buf),
                                                  ctypes.byref(length)))
        return buf.value.decode()

    def search(self, config, budget):
        result = Result()
        self.check(self.lib.imcts_engine_search(self.handle, ctypes.byref(config),
                                                ctypes.byref(budget), ctypes.byref(result)))
        return result


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "target", "release", "libimcts_ffi.so")
    lib = load(sys.argv[1] if len(sys.argv) > 1 else default)
    print("imcts", lib.imcts_version().decode())

    engine = Engine(lib, IMCTS_GAME_BREAKTHROUGH, 50_000)
    for move in ["e2-e3", "d7-d6"]:
        engine.check(engine.play(move))
    assert engine.play("a1-a5") == IMCTS_STATUS_ILLEGAL_MOVE
    print("position", engine.position())

    config = Config()
    spec = b"mcts(ipp,im0.4)"
    engine.check(lib.imcts_config_parse(IMCTS_GAME_BREAKTHROUGH, spec, len(spec),
                                        ctypes.byref(config)))
    # A simulation budget, and a generous time limit read from a Python clock callback.
    t0 = time.monotonic()
    clock = CLOCK(lambda _ctx: int((time.monotonic() - t0) * 1e6))
    budget = Budget(simulations=2000, time_us=60_000_000, clock=clock)
    r = engine.search(config, budget)
    print(f"value {r.value:+.3f} sims {r.simulations} nodes {r.nodes} "
          f"stop {STOP_NAMES[r.stop]} {r.elapsed_us / 1000:.1f} ms")
    print("bestmove", r.best_move.decode())
    engine.check(engine.play(r.best_move.decode()))


if __name__ == "__main__":
    main()
