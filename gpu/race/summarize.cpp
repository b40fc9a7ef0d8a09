// Reads the lines scripts/gpu-race.sh collected from `race` processes, each
// `variant=V repeat=R it=I fail=F fails=... A.begin=start/end ...`, and
// prints the tables: failures of the cold iteration per repeat, their spread,
// the warm iterations, which call failed, and the median call times. Lines
// `variant=V cost SYMBOL key_us=...` (from `race cost`) become a table of
// median resolution times.
// Usage: summarize VARIANT... < lines   (the variants in the order to print)
// SKEW (environment): the skew range D the runs used, for the table by skew.
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

const char *const steps[] = {"A.begin", "A.memset", "A.end", "B.sync1", "B.create1", "B.sync2", "B.create2"};
constexpr int step_count = 7;

struct Run {
    std::string variant;
    int repeat = 0, round = 0, it = 0;
    double skew = 0;
    bool fail = false, crash = false;
    std::string fails;
    bool ran[step_count] = {};
    double start[step_count] = {}, end[step_count] = {};
};

bool parse(const std::string &line, Run &run) {
    std::istringstream in(line);
    std::string token;
    bool has_it = false;
    while (in >> token) {
        auto eq = token.find('=');
        if (eq == std::string::npos) continue;
        std::string key = token.substr(0, eq), value = token.substr(eq + 1);
        if (key == "variant") run.variant = value;
        else if (key == "repeat") run.repeat = std::stoi(value);
        else if (key == "round") run.round = std::stoi(value);
        else if (key == "it") run.it = std::stoi(value), has_it = true;
        else if (key == "skew") run.skew = std::stod(value);
        else if (key == "fail") run.fail = value == "1";
        else if (key == "fails") run.fails = value;
        else if (key == "crash") run.crash = value == "1";
        for (int s = 0; s < step_count; ++s) {
            if (key != steps[s] || value == "-") continue;
            auto slash = value.find('/');
            run.ran[s] = true;
            run.start[s] = std::stod(value.substr(0, slash));
            run.end[s] = std::stod(value.substr(slash + 1));
        }
    }
    return has_it && !run.variant.empty();
}

double median(std::vector<double> v) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double percent(int part, int whole) { return whole ? 100.0 * part / whole : 0.0; }

// Whether one of B's calls ran while A's capture was possibly open
// (between the start of A.begin and the end of A.end).
bool overlapped(const Run &r) {
    if (!r.ran[0]) return false;
    double open = r.start[0], close = r.ran[2] ? r.end[2] : r.end[0];
    for (int s = 3; s < step_count; ++s)
        if (r.ran[s] && r.start[s] < close && r.end[s] > open) return true;
    return false;
}

struct Count {
    int runs = 0, failures = 0;
};

}  // namespace

int main(int argc, char **argv) {
    std::vector<std::string> variants(argv + 1, argv + argc);
    std::vector<Run> runs;
    // crashes outside an iteration's outcome: variant -> kind -> count
    std::map<std::string, std::map<std::string, int>> other_crashes;
    // cost: (variant, symbol) in the order seen -> key -> samples
    std::vector<std::pair<std::string, std::string>> cost_rows;
    std::map<std::pair<std::string, std::string>, std::map<std::string, std::vector<double>>> costs;
    std::string line;
    while (std::getline(std::cin, line)) {
        Run r;
        if (line.find(" cost ") != std::string::npos) {
            std::istringstream in(line);
            std::string variant, word, symbol, token;
            in >> variant >> word >> symbol;
            auto row = std::make_pair(variant.substr(variant.find('=') + 1), symbol);
            if (!costs.count(row)) cost_rows.push_back(row);
            auto &keys = costs[row];
            while (in >> token) {
                auto eq = token.find('=');
                if (eq != std::string::npos && eq > 3 && token.compare(eq - 3, 3, "_us") == 0)
                    keys[token.substr(0, eq)].push_back(std::stod(token.substr(eq + 1)));
            }
        } else if (line.find(" exitcrash ") != std::string::npos || line.find(" aftercrash ") != std::string::npos ||
                   line.find(" setupcrash ") != std::string::npos) {
            std::string variant = line.substr(8, line.find(' ') - 8);  // after "variant="
            const char *kind = line.find(" exitcrash ") != std::string::npos    ? "at exit"
                               : line.find(" aftercrash ") != std::string::npos ? "in an iteration's cleanup"
                                                                                 : "in setup";
            other_crashes[variant][kind]++;
        } else if (parse(line, r)) {
            runs.push_back(r);
        }
    }
    if (!cost_rows.empty()) {
        std::printf("\nresolution cost per function, median µs over processes (after cuInit and the context)\n");
        std::printf("| build | function | timings (median µs) | processes |\n|---|---|---|---|\n");
        for (const auto &row : cost_rows) {
            std::string cells;
            size_t n = 0;
            for (const auto &k : costs[row]) {
                char cell[96];
                std::snprintf(cell, sizeof cell, "%s%s=%.2f", cells.empty() ? "" : " ", k.first.c_str(),
                              median(k.second));
                cells += cell;
                n = std::max(n, k.second.size());
            }
            std::printf("| %s | %s | %s | %zu |\n", row.first.c_str(), row.second.c_str(), cells.c_str(), n);
        }
    }
    if (runs.empty()) return 0;
    int repeats = 0;
    for (const Run &r : runs) repeats = std::max(repeats, r.repeat);

    // Iteration 0 of each process: the cold one.
    std::map<std::string, std::map<int, Count>> cold;
    std::map<std::string, Count> warm, cold_all;
    std::map<std::string, std::map<int, Count>> warm_by_repeat;
    for (const Run &r : runs) {
        Count &c = r.it == 0 ? cold[r.variant][r.repeat] : warm_by_repeat[r.variant][r.repeat];
        c.runs++, c.failures += r.fail;
        Count &all = r.it == 0 ? cold_all[r.variant] : warm[r.variant];
        all.runs++, all.failures += r.fail;
    }

    for (int rep = 1; rep <= repeats; ++rep) {
        std::printf("\nrepeat %d: iteration 0 of each fresh process (first calls inside the race)\n", rep);
        std::printf("| variant | runs | failures | %% |\n|---|---|---|---|\n");
        for (const std::string &v : variants) {
            Count c = cold[v][rep];
            std::printf("| %s | %d | %d | %.1f |\n", v.c_str(), c.runs, c.failures, percent(c.failures, c.runs));
        }
    }

    std::printf("\nspread over the repeats (iteration 0), and the warm iterations 1..N of the same processes\n");
    std::printf("| variant |");
    for (int rep = 1; rep <= repeats; ++rep) std::printf(" rep %d %% |", rep);
    std::printf(" all runs | failures | %% | min-max %% | warm iterations | warm failures | warm %% |\n|---|");
    for (int rep = 1; rep <= repeats + 7; ++rep) std::printf("---|");
    std::printf("\n");
    for (const std::string &v : variants) {
        double lo = 100, hi = 0;
        std::printf("| %s |", v.c_str());
        for (int rep = 1; rep <= repeats; ++rep) {
            Count c = cold[v][rep];
            double p = percent(c.failures, c.runs);
            lo = std::min(lo, p), hi = std::max(hi, p);
            std::printf(" %.1f |", p);
        }
        Count a = cold_all[v], w = warm[v];
        std::printf(" %d | %d | %.1f | %.1f-%.1f | %d | %d | %.2f |\n", a.runs, a.failures,
                    percent(a.failures, a.runs), lo, hi, w.runs, w.failures, percent(w.failures, w.runs));
    }

    std::printf("\ncrashes (the process died of a signal; a crash during an iteration counts as its failure above)\n");
    std::printf("| variant | processes | during iteration 0 | during warm iterations | in an iteration's cleanup | at exit |\n"
                "|---|---|---|---|---|---|\n");
    for (const std::string &v : variants) {
        int cold_crashes = 0, warm_crashes = 0;
        for (const Run &r : runs)
            if (r.variant == v && r.crash) (r.it == 0 ? cold_crashes : warm_crashes)++;
        auto &o = other_crashes[v];
        std::printf("| %s | %d | %d | %d | %d | %d |\n", v.c_str(), cold_all[v].runs, cold_crashes, warm_crashes,
                    o["in an iteration's cleanup"], o["at exit"]);
    }

    std::printf("\nwhich calls failed at iteration 0, in the order they returned (all repeats)\n");
    std::printf("| variant | failed calls:code | runs |\n|---|---|---|\n");
    for (const std::string &v : variants) {
        std::map<std::string, int> kinds;
        for (const Run &r : runs)
            if (r.variant == v && r.it == 0 && r.fail) kinds[r.fails]++;
        for (const auto &k : kinds) std::printf("| %s | %s | %d |\n", v.c_str(), k.first.c_str(), k.second);
    }
    std::printf("\nwhich calls failed in the warm iterations (all repeats)\n");
    std::printf("| variant | failed calls:code | iterations |\n|---|---|---|\n");
    for (const std::string &v : variants) {
        std::map<std::string, int> kinds;
        for (const Run &r : runs)
            if (r.variant == v && r.it != 0 && r.fail) kinds[r.fails]++;
        for (const auto &k : kinds) std::printf("| %s | %s | %d |\n", v.c_str(), k.first.c_str(), k.second);
    }

    // The same round ran every variant with the same skews: compare each
    // variant with the first one, process by process (iteration 0).
    std::map<std::tuple<int, int>, bool> base_failed;
    for (const Run &r : runs)
        if (r.it == 0 && r.variant == variants[0]) base_failed[{r.repeat, r.round}] = r.fail;
    std::printf("\npaired with %s, iteration 0 (same repeat and round, so the same skew)\n", variants[0].c_str());
    std::printf("| variant | pairs | both failed | only this one failed | only %s failed |\n|---|---|---|---|---|\n",
                variants[0].c_str());
    for (size_t i = 1; i < variants.size(); ++i) {
        int pairs = 0, both = 0, only_this = 0, only_base = 0;
        for (const Run &r : runs) {
            if (r.it != 0 || r.variant != variants[i]) continue;
            auto found = base_failed.find({r.repeat, r.round});
            if (found == base_failed.end()) continue;
            ++pairs, both += r.fail && found->second, only_this += r.fail && !found->second,
                only_base += !r.fail && found->second;
        }
        std::printf("| %s | %d | %d | %d | %d |\n", variants[i].c_str(), pairs, both, only_this, only_base);
    }

    double range = std::getenv("SKEW") ? std::atof(std::getenv("SKEW")) : 0;
    for (int cold_only = 1; range > 0 && cold_only >= 0; --cold_only) {
        constexpr int bins = 11;  // odd: skew 0 sits in the middle of a bin
        double width = 2 * range / bins;
        std::printf("\nfailures by skew, %s: failed/runs per bin of %.0f µs (skew > 0: the other thread "
                    "starts later; < 0: the capturing thread does)\n",
                    cold_only ? "iteration 0" : "warm iterations", width);
        std::printf("| variant |");
        for (int b = 0; b < bins; ++b) std::printf(" %+.0f..%+.0f |", -range + b * width, -range + (b + 1) * width);
        std::printf("\n|---|");
        for (int b = 0; b < bins; ++b) std::printf("---|");
        std::printf("\n");
        for (const std::string &v : variants) {
            Count by_bin[bins];
            for (const Run &r : runs) {
                if (r.variant != v || (r.it == 0) != (cold_only == 1)) continue;
                int b = std::min(bins - 1, std::max(0, static_cast<int>((r.skew + range) / width)));
                by_bin[b].runs++, by_bin[b].failures += r.fail;
            }
            std::printf("| %s |", v.c_str());
            for (const Count &c : by_bin) std::printf(" %d/%d |", c.failures, c.runs);
            std::printf("\n");
        }
    }

    for (int cold_only = 1; cold_only >= 0; --cold_only) {
        std::printf("\nmedian durations in µs, %s: each call, the capture window (A.begin start to A.end end),\n"
                    "B's span (B.sync1 start to its last end); how often B's span overlapped the window, and\n"
                    "(window + span) / 2D, the share of skews in [-D, D] that make them overlap\n",
                    cold_only ? "iteration 0" : "warm iterations");
        std::printf("| variant |");
        for (const char *s : steps) std::printf(" %s |", s);
        std::printf(" window | B span | overlapped %% | (window + span) / 2D %% | failed %% |\n|---|");
        for (int s = 0; s < step_count + 5; ++s) std::printf("---|");
        std::printf("\n");
        for (const std::string &v : variants) {
            std::vector<double> took[step_count], window, span;
            int n = 0, overlaps = 0, failures = 0;
            for (const Run &r : runs) {
                if (r.variant != v || (r.it == 0) != (cold_only == 1)) continue;
                ++n, overlaps += overlapped(r), failures += r.fail;
                for (int s = 0; s < step_count; ++s)
                    if (r.ran[s]) took[s].push_back(r.end[s] - r.start[s]);
                if (r.ran[0] && r.ran[2]) window.push_back(r.end[2] - r.start[0]);
                double last = r.end[3];
                for (int s = 4; s < step_count; ++s)
                    if (r.ran[s]) last = r.end[s];
                if (r.ran[3]) span.push_back(last - r.start[3]);
            }
            if (n == 0) continue;
            double w = median(window), b = median(span);
            std::printf("| %s |", v.c_str());
            for (int s = 0; s < step_count; ++s) std::printf(" %.1f |", median(took[s]));
            std::printf(" %.1f | %.1f | %.1f | %.1f | %.1f |\n", w, b, percent(overlaps, n),
                        range > 0 ? std::min(100.0, 100 * (w + b) / (2 * range)) : 100.0, percent(failures, n));
        }
    }
    return 0;
}
