#include "api/schema_regex.h"

#include <algorithm>
#include <vector>

#include "api/yaml_scalar.h"

namespace lws::api {

// Instructions of the NFA. kClass matches one code point against sorted inclusive ranges.
struct SchemaRegex::Program {
  enum Op { kClass, kSplit, kJump, kBegin, kEnd, kWordBoundary, kNotWordBoundary, kMatch };
  struct Inst {
    Op op;
    int x = 0, y = 0;  // kSplit: both targets; kJump: x
    std::vector<std::pair<char32_t, char32_t>> ranges;
    bool negated = false;
  };
  std::vector<Inst> insts;
  int start = 0;
};

namespace {

using Program = SchemaRegex::Program;
using Ranges = std::vector<std::pair<char32_t, char32_t>>;
constexpr std::size_t kMaxInsts = 20000;
constexpr int kMaxRepeat = 1000;

Status ParseError(std::string_view what, std::string_view arg) {
  return Status::BadRequest("error parsing regexp: " + std::string(what) + ": `" +
                            std::string(arg) + "`");
}

bool IsWordChar(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

Ranges PerlClass(char c) {
  switch (c) {
    case 'd':
    case 'D':
      return {{'0', '9'}};
    case 's':
    case 'S':
      return {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}};
    default:
      return {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  }
}

Ranges Negate(Ranges r) {
  std::sort(r.begin(), r.end());
  Ranges out;
  char32_t next = 0;
  for (auto [lo, hi] : r) {
    if (lo > next) out.push_back({next, lo - 1});
    next = std::max<char32_t>(next, hi + 1);
  }
  if (next <= 0x10FFFF) out.push_back({next, 0x10FFFF});
  return out;
}

// A fragment of the program under construction: its first instruction and the holes (indices
// of x/y slots) to patch to whatever follows.
struct Frag {
  int start;
  std::vector<std::pair<int, int>> holes;  // (instruction, 0 for x / 1 for y)
};

class Parser {
 public:
  Parser(std::string_view pattern, Program* prog) : src_(pattern), prog_(prog) {}

  Result<Frag> ParseAll() {
    ASSIGN_OR_RETURN(Frag f, Alternation());
    if (pos_ < src_.size()) return ParseError("unexpected )", src_);
    return f;
  }

 private:
  int Emit(Program::Inst inst) {
    prog_->insts.push_back(std::move(inst));
    return static_cast<int>(prog_->insts.size()) - 1;
  }
  void Patch(const Frag& f, int target) {
    for (auto [i, slot] : f.holes) (slot == 0 ? prog_->insts[i].x : prog_->insts[i].y) = target;
  }
  Frag Empty() {
    int j = Emit({Program::kJump});
    return {j, {{j, 0}}};
  }
  Frag Concat(Frag a, Frag b) {
    Patch(a, b.start);
    return {a.start, std::move(b.holes)};
  }

  Result<Frag> Alternation() {
    ASSIGN_OR_RETURN(Frag left, Concatenation());
    while (pos_ < src_.size() && src_[pos_] == '|') {
      ++pos_;
      ASSIGN_OR_RETURN(Frag right, Concatenation());
      int s = Emit({Program::kSplit, left.start, right.start});
      left.holes.insert(left.holes.end(), right.holes.begin(), right.holes.end());
      left = {s, std::move(left.holes)};
    }
    return left;
  }

  Result<Frag> Concatenation() {
    Frag f = Empty();
    while (pos_ < src_.size() && src_[pos_] != '|' && src_[pos_] != ')') {
      ASSIGN_OR_RETURN(Frag piece, Repetition());
      f = Concat(f, piece);
      if (prog_->insts.size() > kMaxInsts) return ParseError("expression too large", src_);
    }
    return f;
  }

  Result<Frag> Repetition() {
    std::size_t atom_start = pos_;
    std::size_t insts_before = prog_->insts.size();
    ASSIGN_OR_RETURN(Frag atom, Atom());
    std::size_t atom_end = pos_;
    bool repeated = false;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      int min = 0, max = -1;
      std::size_t op_start = pos_;
      if (c == '*') {
        ++pos_;
      } else if (c == '+') {
        min = 1, ++pos_;
      } else if (c == '?') {
        max = 1, ++pos_;
      } else if (c == '{' && ParseCount(&min, &max)) {
      } else {
        break;
      }
      if (repeated)
        return ParseError("invalid nested repetition operator",
                          src_.substr(op_start - 1, pos_ - op_start + 1));
      if (min > kMaxRepeat || max > kMaxRepeat || (max >= 0 && max < min)) {
        return ParseError("invalid repeat count", src_.substr(op_start, pos_ - op_start));
      }
      if (pos_ < src_.size() && src_[pos_] == '?') ++pos_;  // lazy: same language
      repeated = true;
      ASSIGN_OR_RETURN(atom, Repeat(atom, min, max, atom_start, atom_end, insts_before));
    }
    return atom;
  }

  // Parses {n}, {n,} or {n,m} at pos_; false (pos_ unchanged) when it is a literal '{'.
  bool ParseCount(int* min, int* max) {
    std::size_t p = pos_ + 1;
    auto number = [&](int* out) {
      std::size_t s = p;
      long v = 0;
      while (p < src_.size() && src_[p] >= '0' && src_[p] <= '9')
        v = std::min(v * 10 + (src_[p++] - '0'), 100000L);
      *out = static_cast<int>(v);
      return p > s;
    };
    if (!number(min)) return false;
    *max = *min;
    if (p < src_.size() && src_[p] == ',') {
      ++p;
      if (!number(max)) *max = -1;
    }
    if (p >= src_.size() || src_[p] != '}') return false;
    pos_ = p + 1;
    return true;
  }

  // Re-parses the atom text to get fresh copies for counted repetition.
  Result<Frag> CopyAtom(std::size_t atom_start, std::size_t atom_end) {
    Parser sub(src_.substr(0, atom_end), prog_);
    sub.pos_ = atom_start;
    return sub.Atom();
  }

  Result<Frag> Repeat(Frag atom, int min, int max, std::size_t as, std::size_t ae, std::size_t) {
    if (min == 0 && max == -1) {  // x*
      int s = Emit({Program::kSplit, atom.start, 0});
      Patch(atom, s);
      return Frag{s, {{s, 1}}};
    }
    if (min == 1 && max == -1) {  // x+
      int s = Emit({Program::kSplit, atom.start, 0});
      Patch(atom, s);
      return Frag{atom.start, {{s, 1}}};
    }
    if (min == 0 && max == 1) {  // x?
      int s = Emit({Program::kSplit, atom.start, 0});
      atom.holes.push_back({s, 1});
      return Frag{s, std::move(atom.holes)};
    }
    // x{n,m}: n copies, then (m-n) optional copies or a star.
    Frag out = Empty();
    bool first = true;
    auto next_copy = [&]() -> Result<Frag> {
      if (first) {
        first = false;
        return atom;
      }
      if (prog_->insts.size() > kMaxInsts) return ParseError("expression too large", src_);
      return CopyAtom(as, ae);
    };
    for (int i = 0; i < min; ++i) {
      ASSIGN_OR_RETURN(Frag c, next_copy());
      out = Concat(out, c);
    }
    if (max == -1) {
      ASSIGN_OR_RETURN(Frag c, next_copy());
      ASSIGN_OR_RETURN(Frag star, Repeat(c, 0, -1, as, ae, 0));
      return Concat(out, star);
    }
    for (int i = min; i < max; ++i) {
      ASSIGN_OR_RETURN(Frag c, next_copy());
      ASSIGN_OR_RETURN(Frag opt, Repeat(c, 0, 1, as, ae, 0));
      out = Concat(out, opt);
    }
    return out;
  }

  Frag ClassFrag(Ranges ranges, bool negated = false) {
    Program::Inst inst{Program::kClass};
    inst.ranges = std::move(ranges);
    inst.negated = negated;
    int i = Emit(std::move(inst));
    return {i, {{i, 0}}};
  }
  Frag AssertFrag(Program::Op op) {
    int i = Emit({op});
    return {i, {{i, 0}}};
  }

  Result<Frag> Atom() {
    char c = src_[pos_];
    switch (c) {
      case '*':
      case '+':
      case '?':
        return ParseError("missing argument to repetition operator", src_.substr(pos_, 1));
      case '(':
        return Group();
      case '[':
        return Class();
      case '.':
        ++pos_;
        return ClassFrag({{'\n', '\n'}}, true);
      case '^':
        ++pos_;
        return AssertFrag(Program::kBegin);
      case '$':
        ++pos_;
        return AssertFrag(Program::kEnd);
      case '\\':
        return Escape();
      default:
        break;
    }
    char32_t cp = 0;
    if (!yaml_internal::NextCodePoint(src_, &pos_, &cp)) return ParseError("invalid UTF-8", src_);
    return ClassFrag({{cp, cp}});
  }

  Result<Frag> Group() {
    std::size_t open = pos_++;
    if (src_.substr(pos_, 2) == "?:") {
      pos_ += 2;
    } else if (pos_ < src_.size() && src_[pos_] == '?') {
      return ParseError("invalid or unsupported Perl syntax", src_.substr(open, 3));
    }
    ASSIGN_OR_RETURN(Frag inner, Alternation());
    if (pos_ >= src_.size() || src_[pos_] != ')') return ParseError("missing closing )", src_);
    ++pos_;
    return inner;
  }

  // One escape sequence after '\' at pos_: a code point, or a class in *ranges.
  Result<char32_t> EscapeChar(Ranges* ranges, bool in_class) {
    std::size_t start = pos_++;
    if (pos_ >= src_.size()) return ParseError("trailing backslash at end of expression", "");
    char c = src_[pos_++];
    switch (c) {
      case 'd':
      case 'D':
      case 's':
      case 'S':
      case 'w':
      case 'W': {
        Ranges r = PerlClass(c);
        *ranges = (c >= 'A' && c <= 'Z') ? Negate(r) : r;
        return char32_t{0};
      }
      case 't':
        return char32_t{'\t'};
      case 'n':
        return char32_t{'\n'};
      case 'r':
        return char32_t{'\r'};
      case 'f':
        return char32_t{'\f'};
      case 'v':
        return char32_t{'\v'};
      case 'a':
        return char32_t{7};
      case 'x': {
        std::size_t end = pos_;
        bool braced = pos_ < src_.size() && src_[pos_] == '{';
        if (braced)
          end = src_.find('}', pos_);
        else
          end = std::min(pos_ + 2, src_.size());
        std::string_view hex = braced && end != std::string_view::npos
                                   ? src_.substr(pos_ + 1, end - pos_ - 1)
                                   : src_.substr(pos_, end - pos_);
        std::uint64_t v = 0;
        if (end == std::string_view::npos || (!braced && hex.size() != 2) || hex.empty() ||
            !yaml_internal::ParseGoUint("0x" + std::string(hex), &v) || v > 0x10FFFF) {
          return ParseError("invalid escape sequence", src_.substr(start, pos_ - start));
        }
        pos_ = braced ? end + 1 : end;
        return static_cast<char32_t>(v);
      }
      default:
        if (c > 0 && c < 0x7F && !IsWordChar(static_cast<unsigned char>(c)))
          return static_cast<char32_t>(c);
        (void)in_class;
        return ParseError("invalid escape sequence", src_.substr(start, 2));
    }
  }

  Result<Frag> Escape() {
    if (pos_ + 1 < src_.size()) {
      char c = src_[pos_ + 1];
      Program::Op op = Program::kMatch;
      if (c == 'A') op = Program::kBegin;
      if (c == 'z') op = Program::kEnd;
      if (c == 'b') op = Program::kWordBoundary;
      if (c == 'B') op = Program::kNotWordBoundary;
      if (op != Program::kMatch) {
        pos_ += 2;
        return AssertFrag(op);
      }
    }
    Ranges ranges;
    ASSIGN_OR_RETURN(char32_t cp, EscapeChar(&ranges, false));
    if (!ranges.empty()) return ClassFrag(std::move(ranges));
    return ClassFrag({{cp, cp}});
  }

  bool PosixClass(Ranges* out) {
    static const std::pair<std::string_view, Ranges> kNames[] = {
        {"[:alnum:]", {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}},
        {"[:alpha:]", {{'A', 'Z'}, {'a', 'z'}}},
        {"[:digit:]", {{'0', '9'}}},
        {"[:lower:]", {{'a', 'z'}}},
        {"[:upper:]", {{'A', 'Z'}}},
        {"[:space:]", {{'\t', '\r'}, {' ', ' '}}},
        {"[:xdigit:]", {{'0', '9'}, {'A', 'F'}, {'a', 'f'}}},
        {"[:word:]", {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}},
        {"[:punct:]", {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}},
    };
    for (const auto& [name, ranges] : kNames) {
      if (src_.substr(pos_, name.size()) == name) {
        pos_ += name.size();
        out->insert(out->end(), ranges.begin(), ranges.end());
        return true;
      }
    }
    return false;
  }

  Result<Frag> Class() {
    std::size_t open = pos_++;
    bool negated = pos_ < src_.size() && src_[pos_] == '^';
    if (negated) ++pos_;
    Ranges ranges;
    bool first = true;
    while (pos_ < src_.size() && (src_[pos_] != ']' || first)) {
      first = false;
      if (PosixClass(&ranges)) continue;
      ASSIGN_OR_RETURN(char32_t lo, ClassChar(&ranges));
      if (lo == kNoChar) continue;
      char32_t hi = lo;
      if (pos_ + 1 < src_.size() && src_[pos_] == '-' && src_[pos_ + 1] != ']') {
        std::size_t range_start = pos_ - 1;
        ++pos_;
        Ranges ignored;
        ASSIGN_OR_RETURN(hi, ClassChar(&ignored));
        if (hi == kNoChar || hi < lo) {
          return ParseError("invalid character class range",
                            src_.substr(range_start, pos_ - range_start));
        }
      }
      ranges.push_back({lo, hi});
    }
    if (pos_ >= src_.size()) return ParseError("missing closing ]", src_.substr(open));
    ++pos_;
    return ClassFrag(std::move(ranges), negated);
  }

  static constexpr char32_t kNoChar = 0xFFFFFFFF;

  // A class member: a code point, or kNoChar after appending an escape class to *ranges.
  Result<char32_t> ClassChar(Ranges* ranges) {
    if (src_[pos_] == '\\') {
      Ranges cls;
      ASSIGN_OR_RETURN(char32_t cp, EscapeChar(&cls, true));
      if (!cls.empty()) {
        ranges->insert(ranges->end(), cls.begin(), cls.end());
        return kNoChar;
      }
      return cp;
    }
    char32_t cp = 0;
    if (!yaml_internal::NextCodePoint(src_, &pos_, &cp)) return ParseError("invalid UTF-8", src_);
    return cp;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  Program* prog_;
};

bool ClassMatches(const Program::Inst& inst, char32_t c) {
  bool in = false;
  for (auto [lo, hi] : inst.ranges) in = in || (c >= lo && c <= hi);
  return in != inst.negated;
}

}  // namespace

Result<SchemaRegex> SchemaRegex::Compile(std::string_view pattern) {
  auto prog = std::make_shared<Program>();
  Parser parser(pattern, prog.get());
  Frag f{0, {}};
  if (pattern.empty()) {
    f = Frag{0, {}};
    prog->insts.push_back({Program::kMatch});
    prog->start = 0;
  } else {
    ASSIGN_OR_RETURN(f, parser.ParseAll());
    int match = static_cast<int>(prog->insts.size());
    prog->insts.push_back({Program::kMatch});
    for (auto [i, slot] : f.holes) (slot == 0 ? prog->insts[i].x : prog->insts[i].y) = match;
    prog->start = f.start;
  }
  SchemaRegex re;
  re.prog_ = std::move(prog);
  return re;
}

bool SchemaRegex::Search(std::string_view text) const {
  const Program& p = *prog_;
  const int n = static_cast<int>(p.insts.size());
  std::vector<int> mark(n, -1);
  std::vector<int> current, next, stack;
  // Follows empty transitions from `pc` at text offset `at`, collecting class instructions.
  auto add = [&](std::vector<int>& list, int pc, std::size_t at, char32_t prev, char32_t cur,
                 bool at_end, int generation) -> bool {
    stack.assign(1, pc);
    while (!stack.empty()) {
      int i = stack.back();
      stack.pop_back();
      if (mark[i] == generation) continue;
      mark[i] = generation;
      const Program::Inst& inst = p.insts[i];
      bool word_boundary = IsWordChar(prev) != IsWordChar(cur);
      switch (inst.op) {
        case Program::kMatch:
          return true;
        case Program::kClass:
          list.push_back(i);
          break;
        case Program::kJump:
          stack.push_back(inst.x);
          break;
        case Program::kSplit:
          stack.push_back(inst.y), stack.push_back(inst.x);
          break;
        case Program::kBegin:
          if (at == 0) stack.push_back(inst.x);
          break;
        case Program::kEnd:
          if (at_end) stack.push_back(inst.x);
          break;
        case Program::kWordBoundary:
          if (word_boundary) stack.push_back(inst.x);
          break;
        case Program::kNotWordBoundary:
          if (!word_boundary) stack.push_back(inst.x);
          break;
      }
    }
    return false;
  };
  int generation = 0;
  char32_t prev = 0;
  std::size_t i = 0;
  while (true) {
    bool at_end = i >= text.size();
    char32_t cur = 0;
    std::size_t after = i;
    if (!at_end && !yaml_internal::NextCodePoint(text, &after, &cur)) {
      cur = 0xFFFD;
      after = i + 1;
    }
    ++generation;
    // Unanchored search: a new thread starts at every position.
    next.clear();
    for (int pc : current) {
      if (add(next, pc, i, prev, cur, at_end, generation)) return true;
    }
    if (add(next, p.start, i, prev, cur, at_end, generation)) return true;
    if (at_end) return false;
    current.clear();
    for (int pc : next) {
      if (ClassMatches(p.insts[pc], cur)) current.push_back(p.insts[pc].x);
    }
    prev = cur;
    i = after;
  }
}

}  // namespace lws::api
