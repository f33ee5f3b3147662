#include "base/status.h"

#include <gtest/gtest.h>

#include "base/result.h"

namespace lws {
namespace {

TEST(StatusTest, CodesMapToKubernetesReasons) {
  struct Row {
    Code code;
    std::string_view reason;
    int http;
  };
  const Row rows[] = {
      {Code::kBadRequest, "BadRequest", 400},
      {Code::kNotFound, "NotFound", 404},
      {Code::kAlreadyExists, "AlreadyExists", 409},
      {Code::kConflict, "Conflict", 409},
      {Code::kInvalid, "Invalid", 422},
      {Code::kGone, "Expired", 410},
      {Code::kTooManyRequests, "TooManyRequests", 429},
      {Code::kInternal, "InternalError", 500},
      {Code::kUnsupportedMediaType, "UnsupportedMediaType", 415},
      {Code::kMethodNotAllowed, "MethodNotAllowed", 405},
  };
  for (const auto& row : rows) {
    Status s(row.code, "m");
    EXPECT_EQ(s.reason(), row.reason);
    EXPECT_EQ(s.http_code(), row.http) << row.reason;
    EXPECT_FALSE(s.ok());
  }
  EXPECT_TRUE(Status::Ok().ok());
  EXPECT_EQ(Status::Ok().ToString(), "OK");
}

TEST(StatusTest, InvalidCarriesCauses) {
  Status s =
      Status::Invalid("bad", {{"FieldValueInvalid", "Invalid value: -1: x", "spec.replicas"}});
  ASSERT_EQ(s.causes().size(), 1u);
  EXPECT_EQ(s.causes()[0].field, "spec.replicas");
  EXPECT_EQ(s.ToString(), "Invalid: bad");
}

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::BadRequest("odd");
  return x / 2;
}

Result<int> Quarter(int x) {
  ASSIGN_OR_RETURN(int h, Half(x));
  ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

Status CheckEven(int x) {
  RETURN_IF_ERROR(Half(x));
  return Status::Ok();
}

TEST(ResultTest, MacrosPropagate) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(6).status().code(), Code::kBadRequest);
  EXPECT_TRUE(CheckEven(4).ok());
  EXPECT_EQ(CheckEven(3).message(), "odd");
}

TEST(ResultDeathTest, ValueOfFailureAborts) {
  Result<int> r = Status::NotFound("x");
  EXPECT_DEATH((void)r.value(), "value\\(\\) on a failed Result");
}

}  // namespace
}  // namespace lws
