#include "InterpreterInternal.h"

#include <mutex>

namespace rlopt::graph::interp {

/// Large buffers no value uses any more, kept for the next op that needs
/// one of a similar size. Holds at most a few buffers and 1 GiB.
class BufferPool {
public:
  static constexpr size_t kMinimumElements = size_t(1) << 16;
  static constexpr size_t kMaximumBuffers = 8;
  static constexpr size_t kMaximumElements = size_t(1) << 27;

  bool take(size_t count, std::vector<double> &buffer) {
    std::lock_guard<std::mutex> lock(mutex);
    size_t best = free.size();
    for (size_t i = 0; i < free.size(); ++i) {
      size_t capacity = free[i].capacity();
      // Best fit, but never a buffer far larger than the request.
      if (capacity >= count && capacity <= 4 * count &&
          (best == free.size() || capacity < free[best].capacity()))
        best = i;
    }
    if (best == free.size())
      return false;
    held -= free[best].capacity();
    buffer = std::move(free[best]);
    free.erase(free.begin() + static_cast<std::ptrdiff_t>(best));
    return true;
  }

  void give(std::vector<double> &&buffer) {
    size_t capacity = buffer.capacity();
    if (capacity < kMinimumElements || capacity > kMaximumElements)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    // Make room by dropping smaller buffers: large ones are the expensive
    // ones to fault in again.
    while (!free.empty() && (free.size() == kMaximumBuffers ||
                             held + capacity > kMaximumElements)) {
      auto smallest = free.begin();
      for (auto it = free.begin(); it != free.end(); ++it)
        if (it->capacity() < smallest->capacity())
          smallest = it;
      if (smallest->capacity() >= capacity)
        return;
      held -= smallest->capacity();
      free.erase(smallest);
    }
    held += capacity;
    free.push_back(std::move(buffer));
  }

private:
  std::mutex mutex;
  std::vector<std::vector<double>> free;
  size_t held = 0; // elements in `free`
};

namespace {

thread_local std::shared_ptr<BufferPool> currentPool;

/// Returns a dying value's buffer to the pool it was made under.
struct Recycler {
  std::shared_ptr<BufferPool> pool;
  void operator()(std::vector<double> *buffer) const {
    if (pool)
      pool->give(std::move(*buffer));
    delete buffer;
  }
};

} // namespace

BufferScope::BufferScope() : previous(std::move(currentPool)) {
  currentPool = std::make_shared<BufferPool>();
}

BufferScope::~BufferScope() { currentPool = std::move(previous); }

std::vector<double> newScratchBuffer(int64_t count) {
  std::vector<double> buffer;
  size_t size = static_cast<size_t>(count);
  if (currentPool && size >= BufferPool::kMinimumElements &&
      currentPool->take(size, buffer) && buffer.size() >= size) {
    buffer.resize(size); // shrinking writes nothing
    return buffer;
  }
  buffer.assign(size, 0.0);
  return buffer;
}

std::vector<double> newBuffer(int64_t count, double fill) {
  std::vector<double> buffer;
  size_t size = static_cast<size_t>(count);
  if (currentPool && size >= BufferPool::kMinimumElements &&
      currentPool->take(size, buffer)) {
    buffer.assign(size, fill);
    return buffer;
  }
  buffer.assign(size, fill);
  return buffer;
}

std::vector<double> &RuntimeValue::writable() {
  if (!buffer) {
    buffer = std::make_shared<std::vector<double>>();
  } else if (buffer.use_count() > 1) {
    std::vector<double> copy = newScratchBuffer(size());
    std::copy(buffer->begin(), buffer->end(), copy.begin());
    *this = makeArray(std::move(shape), std::move(copy));
  }
  return *buffer;
}

RuntimeValue makeArray(Shape shape, std::vector<double> data) {
  RuntimeValue value;
  value.shape = std::move(shape);
  if (currentPool && data.capacity() >= BufferPool::kMinimumElements)
    value.buffer = std::shared_ptr<std::vector<double>>(
        new std::vector<double>(std::move(data)), Recycler{currentPool});
  else
    value.buffer = std::make_shared<std::vector<double>>(std::move(data));
  return value;
}

RuntimeValue makeScratchArray(const Shape &shape) {
  int64_t count = shape.elementCount() * (isComplex(shape.type()) ? 2 : 1);
  return makeArray(shape, newScratchBuffer(count));
}

RuntimeValue makeZeroArray(const Shape &shape) {
  int64_t count = shape.elementCount() * (isComplex(shape.type()) ? 2 : 1);
  return makeArray(shape, newBuffer(count));
}

RuntimeValue makeTuple(std::vector<RuntimeValue> elements) {
  std::vector<Shape> shapes;
  shapes.reserve(elements.size());
  for (const RuntimeValue &element : elements)
    shapes.push_back(element.shape);
  RuntimeValue value;
  value.shape = Shape::tuple(std::move(shapes));
  value.elements = std::move(elements);
  return value;
}

RuntimeValue makeZeroValue(const Shape &shape) {
  if (shape.isTuple()) {
    std::vector<RuntimeValue> elements;
    for (const Shape &element : shape.tupleShapes())
      elements.push_back(makeZeroValue(element));
    RuntimeValue value;
    value.shape = shape;
    value.elements = std::move(elements);
    return value;
  }
  if (!shape.isArray()) {
    RuntimeValue token;
    token.shape = shape;
    return token;
  }
  return makeZeroArray(shape);
}

RuntimeValue fromPublic(const Value &value) {
  RuntimeValue result;
  result.shape = value.shape;
  if (value.shape.isTuple()) {
    for (const Value &element : value.elements)
      result.elements.push_back(fromPublic(element));
  } else if (value.shape.isArray()) {
    result.buffer = std::make_shared<std::vector<double>>(value.data);
  }
  return result;
}

Value toPublic(const RuntimeValue &value) {
  Value result;
  result.shape = value.shape;
  if (value.buffer)
    result.data = *value.buffer;
  for (const RuntimeValue &element : value.elements)
    result.elements.push_back(toPublic(element));
  return result;
}

} // namespace rlopt::graph::interp
