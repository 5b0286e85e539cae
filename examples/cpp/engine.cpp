// Second translation unit of the C++ example: includes imcts.h again (through engine.hpp).
#include "engine.hpp"

#include "imcts.h"

#include <cstdint>
#include <vector>

namespace imcts_example {

imcts_error::imcts_error(imcts_status status)
    : std::runtime_error(imcts_status_str(status)), status_(status) {}

void check(imcts_status status) {
  if (status != IMCTS_STATUS_OK) throw imcts_error(status);
}

Engine::Engine(imcts_game game, std::size_t nodes) {
  std::size_t size = 0, align = 0;
  check(imcts_engine_size(game, nodes, &size));
  check(imcts_engine_align(&align));
  block_.reset(new unsigned char[size + align - 1]);
  auto p = reinterpret_cast<std::uintptr_t>(block_.get());
  p = (p + align - 1) & ~static_cast<std::uintptr_t>(align - 1);
  check(imcts_engine_init(reinterpret_cast<void *>(p), size, game, nodes, &engine_));
}

// Reads a string through the buffer convention: ask for the length, then fetch.
template <typename F>
static std::string fetch(F call) {
  std::size_t len = 0;
  imcts_status st = call(nullptr, 0, &len);
  if (st != IMCTS_STATUS_BUFFER_TOO_SMALL) check(st);
  std::vector<char> buf(len + 1);
  check(call(buf.data(), buf.size(), &len));
  return std::string(buf.data(), len);
}

std::string Engine::position() const {
  return fetch([this](char *b, std::size_t c, std::size_t *l) {
    return imcts_engine_position(engine_, b, c, l);
  });
}

std::string Engine::legal_moves(std::size_t *count) const {
  return fetch([this, count](char *b, std::size_t c, std::size_t *l) {
    return imcts_engine_legal_moves(engine_, b, c, l, count);
  });
}

void Engine::play(const std::string &move) {
  check(imcts_engine_play(engine_, move.data(), move.size()));
}

imcts_result Engine::search(const imcts_config &config, const imcts_budget &budget) {
  imcts_result r;
  check(imcts_engine_search(engine_, &config, &budget, &r));
  return r;
}

imcts_config parse_spec(imcts_game game, const std::string &spec) {
  imcts_config c;
  check(imcts_config_parse(game, spec.data(), spec.size(), &c));
  return c;
}

}  // namespace imcts_example
