// compare_lines <expected> <actual>: compares two text files line by line, prints the number of
// lines compared and the first mismatches; exit status 0 only when both are identical.
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::ifstream e(argv[1]), a(argv[2]);
  if (!e || !a) {
    std::cerr << "cannot open inputs\n";
    return 2;
  }
  std::string le, la;
  long n = 0, bad = 0;
  for (;;) {
    const bool ge = static_cast<bool>(std::getline(e, le)), ga = static_cast<bool>(std::getline(a, la));
    if (!ge && !ga) break;
    ++n;
    if (!ge || !ga || le != la) {
      if (++bad <= 30)
        std::cout << "line " << n << ": expected '" << (ge ? le : "<eof>") << "' got '"
                  << (ga ? la : "<eof>") << "'\n";
    }
  }
  std::cout << n << " lines compared, " << bad << " mismatches\n";
  return bad ? 1 : 0;
}
