// File: api/cel_ast.h
//
// The parsed form of a CEL expression (api/cel.h), internal to api/: tokens (cel_lex.cc), the
// syntax tree the recursive-descent parser builds (cel_parse.cc), the checks a program must pass
// (cel_check.cc) and the tree-walking evaluator (cel_eval.cc, cel_functions.cc). A tree is
// immutable once built and nests at most kCelMaxDepth levels.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/cel.h"
#include "api/cel_value.h"
#include "api/schema_regex.h"
#include "base/result.h"

namespace lws::api::cel {

// ---- Tokens (cel_lex.cc) -----------------------------------------------------------------------

enum class Tok {
  kEnd,
  kInt,     // text: the digits, with 0x when hex
  kUint,    // text: the digits without the u
  kDouble,  // text: the literal
  kString,  // text: the decoded value
  kIdent,
  kPunct,  // text: ( ) [ ] { } . , : ? + - * / % ! == != < <= > >= && ||
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;
  std::size_t offset = 0;  // byte offset in the expression, for messages
};

// Splits `text` into tokens ending with kEnd. BadRequest "syntax error at 1:5: ..." when it
// holds something CEL's lexer rejects, or bytes literals, which the subset does not support.
Result<std::vector<Token>> Lex(std::string_view text);

// "1:5" for a byte offset, as CEL reports positions (line:column, both from 1).
std::string Position(std::string_view text, std::size_t offset);

// ---- Syntax tree (cel_parse.cc) --------------------------------------------------------------

enum class ExprKind {
  kLiteral,  // literal
  kIdent,    // name
  kSelect,   // args[0].name
  kHas,      // has(args[0].name)
  kIndex,    // args[0][args[1]]
  kCall,     // name(args...), or args[0].name(args[1...]) when receiver
  kList,     // [args...]
  kMap,      // {args[0]: args[1], args[2]: args[3], ...}
  kCond,     // args[0] ? args[1] : args[2]
  kAnd,      // args[0] && args[1]
  kOr,       // args[0] || args[1]
  kNot,      // !args[0]
  kNeg,      // -args[0]
  kBinary,   // args[0] op args[1]
  kMacro,    // args[0].macro(name, args[1] [, args[2]])
};

enum class BinaryOp { kEq, kNe, kLt, kLe, kGt, kGe, kIn, kAdd, kSub, kMul, kDiv, kMod };

enum class MacroKind { kAll, kExists, kExistsOne, kFilter, kMap, kMapFilter };

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  BinaryOp op = BinaryOp::kEq;
  MacroKind macro = MacroKind::kAll;
  Value literal;
  std::string name;  // identifier, field, function, or the macro's variable
  bool receiver = false;
  std::vector<std::unique_ptr<Expr>> args;
  int depth = 1;                             // levels of the subtree rooted here
  std::shared_ptr<const SchemaRegex> regex;  // matches() with a literal pattern, compiled once
  std::size_t offset = 0;
};

// Parses a whole expression. BadRequest "syntax error at 1:7: ..." when it is not CEL.
Result<std::unique_ptr<Expr>> Parse(std::string_view text);

// ---- Checks (cel_check.cc) ---------------------------------------------------------------------

// What the subset cannot run: unknown identifiers and functions, wrong argument counts, oldSelf,
// invalid literal regexes (compiled into `regex` here). Also rejects a tree whose result can
// only be a non-bool (a literal, list, map or arithmetic), as cel-go's checker would.
Status Check(Expr* root);

// ---- Evaluation (cel_eval.cc, cel_functions.cc) ------------------------------------------------

class Evaluator {
 public:
  Evaluator(Value self, Budget* budget) : self_(std::move(self)), budget_(budget) {}
  Outcome Eval(const Expr& e);

 private:
  Outcome EvalIdent(const Expr& e);
  Outcome EvalLogic(const Expr& e);
  Outcome EvalCond(const Expr& e);
  Outcome EvalBinary(const Expr& e);
  Outcome EvalList(const Expr& e);
  Outcome EvalMap(const Expr& e);
  Outcome EvalMacro(const Expr& e);
  Outcome MacroStep(const Expr& e, const Value& item, Outcome* accu, ValueList* built, bool* done);
  Outcome EvalCall(const Expr& e);  // cel_functions.cc

  Value self_;
  Budget* budget_;
  // Comprehension variables in scope, innermost last.
  std::vector<std::pair<std::string_view, Value>> vars_;
};

}  // namespace lws::api::cel
