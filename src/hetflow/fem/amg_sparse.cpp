#include "hetflow/fem/amg_sparse.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {

SparseRows sparse_rows(const CsrMatrix& a) {
  check(a);
  SparseRows s;
  s.rows = s.cols = a.n;
  s.row_start.push_back(0);
  std::vector<std::pair<std::int32_t, double>> row;
  for (std::size_t i = 0; i < a.n; ++i) {
    row.clear();
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) row.emplace_back(a.col[k], a.values[k]);
    std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].first == row[k - 1].first) {
        s.values.back() += row[k].second;
      } else {
        s.col.push_back(row[k].first);
        s.values.push_back(row[k].second);
      }
    }
    s.row_start.push_back(static_cast<std::int32_t>(s.col.size()));
  }
  return s;
}

std::vector<double> multiply(const SparseRows& a, std::span<const double> x) {
  if (x.size() != a.cols)
    throw core::Error("sparse product: x has " + std::to_string(x.size()) + " entries, A " + std::to_string(a.cols) +
                      " columns");
  return row_products(a.row_start, a.col, a.values, x);
}

SparseRows transpose(const SparseRows& a) {
  SparseRows t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_start.assign(t.rows + 1, 0);
  for (std::int32_t c : a.col) ++t.row_start[c + 1];
  for (std::size_t i = 0; i < t.rows; ++i) t.row_start[i + 1] += t.row_start[i];
  t.col.resize(a.nnz());
  t.values.resize(a.nnz());
  std::vector<std::int32_t> next(t.row_start.begin(), t.row_start.end() - 1);
  // Rows of A in ascending order keep each row of Aᵀ sorted.
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) {
      const std::int32_t at = next[a.col[k]]++;
      t.col[at] = static_cast<std::int32_t>(i);
      t.values[at] = a.values[k];
    }
  }
  return t;
}

SparseRows product(const SparseRows& a, const SparseRows& b) {
  if (a.cols != b.rows)
    throw core::Error("sparse product: A has " + std::to_string(a.cols) + " columns, B " + std::to_string(b.rows) +
                      " rows");
  SparseRows c;
  c.rows = a.rows;
  c.cols = b.cols;
  c.row_start.push_back(0);
  std::vector<double> sum(b.cols, 0.0);
  std::vector<std::int32_t> seen(b.cols, -1), row;
  for (std::size_t i = 0; i < a.rows; ++i) {
    row.clear();
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) {
      const std::int32_t m = a.col[k];
      for (std::int32_t l = b.row_start[m]; l < b.row_start[m + 1]; ++l) {
        const std::int32_t j = b.col[l];
        if (seen[j] != static_cast<std::int32_t>(i)) {
          seen[j] = static_cast<std::int32_t>(i);
          sum[j] = 0;
          row.push_back(j);
        }
        sum[j] += a.values[k] * b.values[l];
      }
    }
    std::sort(row.begin(), row.end());
    for (std::int32_t j : row) {
      c.col.push_back(j);
      c.values.push_back(sum[j]);
    }
    c.row_start.push_back(static_cast<std::int32_t>(c.col.size()));
  }
  return c;
}

std::vector<double> diagonal(const SparseRows& a) {
  std::vector<double> d(a.rows, 0.0);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k)
      if (static_cast<std::size_t>(a.col[k]) == i) d[i] += a.values[k];
  return d;
}

}  // namespace hetflow::fem
