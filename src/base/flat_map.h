// File: base/flat_map.h
//
// A map held as one vector of (key, value) pairs sorted by key: the object type of api::Json, and
// api::StringMap (labels, annotations, selectors).
//
// Why: nlohmann's default object is a std::map, one tree node per member: an allocation per
// member, and a walk that follows scattered nodes. A simulated rollout builds, compares, walks and
// frees millions of small JSON objects (docs/performance.md, "Flat JSON objects"). One contiguous
// vector per object makes an object one allocation, and walking it a linear scan. Keys stay
// sorted with the same comparison as std::map, so iteration order, and so every serialised
// object, is unchanged.
//
// What differs from std::map, and what callers must keep in mind:
// - Inserting a key moves the members after it, and may move all of them (reallocation); erasing
//   one moves those after it. A reference or iterator into the map is valid only until the map
//   gains or loses a member (std::map keeps them valid). Take a reference after the last insert,
//   or look the member up again.
// - Inserting costs O(size) moves. JSON objects are small, and parsing our own sorted output
//   appends, which is O(1).
//
// Built with LWS_FLAT_MAP_MOVES_ON_CHANGE (the sanitizer test build), every insert and erase moves
// the whole map to a new allocation, so a reference kept across a change reads freed memory and
// AddressSanitizer reports it where the code would otherwise only sometimes misbehave.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace lws::base {

// The template shape nlohmann's basic_json asks of its object type: <Key, T, Compare, Allocator>.
// The comparison is always the transparent std::less<> (what nlohmann passes under C++14 and
// later); the allocator is the standard one.
template <class Key, class T, class IgnoredCompare = std::less<>, class IgnoredAllocator = void>
class FlatMap {
 public:
  using key_type = Key;
  using mapped_type = T;
  using value_type = std::pair<Key, T>;
  using Container = std::vector<value_type>;
  using iterator = typename Container::iterator;
  using const_iterator = typename Container::const_iterator;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = value_type&;
  using const_reference = const value_type&;
  using key_compare = std::less<>;
  using allocator_type = typename Container::allocator_type;

  // What find, count, at, erase and operator[] accept as a key: anything ordered against Key
  // (std::string, std::string_view, const char*), but never an iterator.
  template <class K>
  static constexpr bool kKeyLike =
      !std::is_convertible_v<const K&, const_iterator> && requires(const Key& a, const K& b) {
    { a < b } -> std::convertible_to<bool>;
    { b < a } -> std::convertible_to<bool>;
  };

  FlatMap() = default;
  // Members in any order; of equal keys the first is kept, as std::map's range constructor does.
  template <class It>
  FlatMap(It first, It last) {
    insert(first, last);
  }
  FlatMap(std::initializer_list<value_type> init) : FlatMap(init.begin(), init.end()) {}

  iterator begin() noexcept { return items_.begin(); }
  iterator end() noexcept { return items_.end(); }
  const_iterator begin() const noexcept { return items_.begin(); }
  const_iterator end() const noexcept { return items_.end(); }
  const_iterator cbegin() const noexcept { return items_.cbegin(); }
  const_iterator cend() const noexcept { return items_.cend(); }

  size_type size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }
  size_type max_size() const noexcept { return items_.max_size(); }
  void reserve(size_type n) { items_.reserve(n); }
  void clear() noexcept { items_.clear(); }
  void swap(FlatMap& other) noexcept { items_.swap(other.items_); }

  template <class K>
  requires kKeyLike<K> iterator find(const K& key) {
    const iterator it = LowerBound(key);
    return it != items_.end() && !(key < it->first) ? it : items_.end();
  }
  template <class K>
  requires kKeyLike<K> const_iterator find(const K& key)
  const { return const_cast<FlatMap*>(this)->find(key); }
  template <class K>
  requires kKeyLike<K> size_type count(const K& key)
  const { return find(key) != items_.end() ? 1 : 0; }
  template <class K>
  requires kKeyLike<K>
  bool contains(const K& key) const { return find(key) != items_.end(); }

  template <class K>
  requires kKeyLike<K> T& at(const K& key) {
    const iterator it = find(key);
    if (it == items_.end()) throw std::out_of_range("key not found");
    return it->second;
  }
  template <class K>
  requires kKeyLike<K>
  const T& at(const K& key) const { return const_cast<FlatMap*>(this)->at(key); }

  template <class K>
  requires kKeyLike<K> T& operator[](K&& key) {
    return try_emplace(std::forward<K>(key)).first->second;
  }

  // Inserts (key, T(args...)) unless the key is present; the value is built only when inserted.
  template <class K, class... Args>
  std::pair<iterator, bool> try_emplace(K&& key, Args&&... args) {
    const iterator it = LowerBound(key);
    if (it != items_.end() && !(key < it->first)) return {it, false};
    return {InsertAt(it, Make(std::forward<K>(key), std::forward<Args>(args)...)), true};
  }
  template <class K, class... Args>
  std::pair<iterator, bool> emplace(K&& key, Args&&... args) {
    return try_emplace(std::forward<K>(key), std::forward<Args>(args)...);
  }
  // As std::map's: `hint` is where the member would go; at end() and past the last key, the
  // member is appended without a search.
  template <class K, class... Args>
  iterator emplace_hint(const_iterator hint, K&& key, Args&&... args) {
    if (hint == items_.cend() && (items_.empty() || items_.back().first < key)) {
      return InsertAt(hint, Make(std::forward<K>(key), std::forward<Args>(args)...));
    }
    return try_emplace(std::forward<K>(key), std::forward<Args>(args)...).first;
  }
  std::pair<iterator, bool> insert(const value_type& value) {
    return try_emplace(value.first, value.second);
  }
  std::pair<iterator, bool> insert(value_type&& value) {
    return try_emplace(std::move(value.first), std::move(value.second));
  }
  template <class It>
  void insert(It first, It last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }

  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(iterator pos) { return erase(const_iterator(pos)); }
  iterator erase(const_iterator first, const_iterator last) {
    const difference_type at = first - items_.cbegin();
    items_.erase(first, last);
    MoveIfChecking();
    return items_.begin() + at;
  }
  template <class K>
  requires kKeyLike<K> size_type erase(const K& key) {
    const iterator it = find(key);
    if (it == items_.end()) return 0;
    erase(it);
    return 1;
  }

  // Member by member, as std::map compares (C++20 derives <, <=, > and >= from <=>).
  friend bool operator==(const FlatMap& a, const FlatMap& b) { return a.items_ == b.items_; }
  friend auto operator<=>(const FlatMap& a, const FlatMap& b) { return a.items_ <=> b.items_; }

 private:
  // The first member whose key is not less than `key`. Appending in key order (parsing sorted
  // JSON, building an object field by field) is the common case, so the last member is looked at
  // first.
  template <class K>
  iterator LowerBound(const K& key) {
    if (items_.empty() || items_.back().first < key) return items_.end();
    return std::lower_bound(items_.begin(), items_.end(), key,
                            [](const value_type& item, const K& k) { return item.first < k; });
  }

  // The member (key, T(args...)), the value built in place.
  template <class K, class... Args>
  static value_type Make(K&& key, Args&&... args) {
    return value_type(std::piecewise_construct, std::forward_as_tuple(std::forward<K>(key)),
                      std::forward_as_tuple(std::forward<Args>(args)...));
  }

  iterator InsertAt(const_iterator pos, value_type&& value) {
    const difference_type at = pos - items_.cbegin();
    items_.insert(pos, std::move(value));
    MoveIfChecking();
    return items_.begin() + at;
  }

  void MoveIfChecking() {
#ifdef LWS_FLAT_MAP_MOVES_ON_CHANGE
    Container moved(std::make_move_iterator(items_.begin()), std::make_move_iterator(items_.end()));
    items_.swap(moved);
#endif
  }

  Container items_;
};

}  // namespace lws::base
