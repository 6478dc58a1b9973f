// A kernel whose printf is never synchronised before the program returns from main.
#include <cstdio>

__global__ void hello() { printf("kernel: hello\n"); }

int main() {
  printf("host: launch\n");
  hello<<<1, 1>>>();
  printf("host: return without synchronising\n");
  return 0;
}
