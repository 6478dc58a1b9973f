// The function objects of cooperative_groups/reduce.h and scan.h.
#pragma once

namespace cooperative_groups {

template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {  // the smaller of the two
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger of the two
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

}  // namespace cooperative_groups
