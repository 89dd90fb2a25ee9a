// Load generator for scripts/bench-serve: CLIENTS threads, each with one keep-alive cpp-httplib client, send
// REQUESTS checks in all to POST /api/check and measure each one's latency; the server's RSS is read from /proc
// as the run goes, to show whether memory stays flat. Figures, not assertions.
//
// serve_load HOST PORT REQUESTS CLIENTS SERVER_PID SEED ROSTER_SIZE [distinct]
// With `distinct`, every answer is a number no one typed before, so no verdict comes from the server's cache.

#include <util/secret.hpp>
#include <util/token.hpp>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

/// VmRSS and VmHWM of a process, in KiB.
std::pair<long, long> memory_of(int pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    long rss = 0, hwm = 0;
    for (std::string line; std::getline(status, line);) {
        if (line.starts_with("VmRSS:"))
            rss = std::stol(line.substr(6));
        if (line.starts_with("VmHWM:"))
            hwm = std::stol(line.substr(6));
    }
    return {rss, hwm};
}

/// A class's typical answers to week 3 (d_model 512, h 8, biases: qkv 787,968, total 1,050,624 as written):
/// right ones in several forms, the catalogue's mistakes, roundings and unreadable text.
const std::vector<std::pair<std::string, std::string>> k_answers = {
    {"a", "787968"},      {"a", "786,432"},
    {"a", "3*512*513"},   {"a", "0.79M"},
    {"a", "262,656"},     {"b", "1050624"},
    {"b", "1,048,576"},   {"b", "4*512*513"},
    {"b", "1.05M"},       {"b", "8404992"},
    {"b", "131776"},      {"b", "banana"},
    {"b", "1050625"},     {"b", "4 \\times 512 \\times 513"},
    {"b", "1.1 million"}, {"a", "three"}};

} // namespace

int main(int argc, char** argv) {
    if (argc != 9 && argc != 10) {
        std::fprintf(stderr, "usage: serve_load HOST PORT REQUESTS CLIENTS SERVER_PID SEED SECRET_FILE ROSTER_SIZE "
                             "[distinct]\n");
        return 2;
    }
    const std::string host = argv[1];
    const int port = std::stoi(argv[2]);
    const long requests = std::stol(argv[3]);
    const int clients = std::stoi(argv[4]);
    const int pid = std::stoi(argv[5]);
    const std::string seed = argv[6];
    auto secret = headcount::load_token_secret(argv[7], false);
    if (!secret) {
        std::fprintf(stderr, "serve_load: %s\n", secret.error().to_string().c_str());
        return 2;
    }
    const int students = std::stoi(argv[8]);
    const bool distinct = argc == 10 && std::string(argv[9]) == "distinct";

    std::vector<std::string> bodies;
    for (int s = 0; s < std::max(students, 1); ++s)
        for (const auto& [part, answer] : k_answers) {
            nlohmann::json body{{"problem", "week3-mha-params"}, {"part", part}, {"answer", answer}};
            if (students > 0) {
                const std::string id = "s" + std::to_string(1000 + s);
                body["student"] = id;
                body["token"] = headcount::student_token(secret->secret, seed, id);
            }
            bodies.push_back(body.dump());
        }

    std::atomic<long> next{0};
    std::atomic<long> errors{0};
    std::mutex merge;
    std::vector<double> latencies;
    latencies.reserve(static_cast<std::size_t>(requests));
    std::vector<std::pair<long, long>> samples; // (requests done, RSS KiB)
    std::atomic<long> done{0};

    const auto start = std::chrono::steady_clock::now();
    std::thread sampler([&] {
        long last = -1;
        while (done.load() < requests) {
            const long now = done.load();
            if (now / (requests / 10 + 1) != last) {
                last = now / (requests / 10 + 1);
                const std::lock_guard lock(merge);
                samples.emplace_back(now, memory_of(pid).first);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c)
        threads.emplace_back([&, c] {
            httplib::Client client(host, port);
            client.set_keep_alive(true);
            client.set_tcp_nodelay(true);
            client.set_read_timeout(10, 0);
            std::vector<double> mine;
            for (long i = next++; i < requests; i = next++) {
                std::string body = bodies[static_cast<std::size_t>(i * 7919 + c) % bodies.size()];
                if (distinct) {
                    auto json = nlohmann::json::parse(body);
                    json["answer"] = std::to_string(2'000'000 + i);
                    body = json.dump();
                }
                const auto t0 = std::chrono::steady_clock::now();
                auto result = client.Post("/api/check", body, "application/json");
                const auto t1 = std::chrono::steady_clock::now();
                if (!result || result->status != 200)
                    ++errors;
                mine.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                ++done;
            }
            const std::lock_guard lock(merge);
            latencies.insert(latencies.end(), mine.begin(), mine.end());
        });
    for (std::thread& t : threads)
        t.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    sampler.join();
    const auto [rss, hwm] = memory_of(pid);
    samples.emplace_back(requests, rss);

    std::sort(latencies.begin(), latencies.end());
    const auto at = [&](double q) { return latencies[static_cast<std::size_t>(q * (latencies.size() - 1))]; };
    std::printf("checks:   %ld by %d keep-alive clients in %.2f s = %.0f checks/s (%s answers)\n", requests, clients,
                seconds, requests / seconds, distinct ? "all different" : "a class's typical");
    std::printf("latency:  p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", at(0.50), at(0.99), latencies.back());
    std::printf("errors:   %ld\n", errors.load());
    std::printf("RSS:      peak %.1f MiB (VmHWM); as the run went:", hwm / 1024.0);
    for (const auto& [n, kib] : samples)
        std::printf(" %ldk:%.1f", n / 1000, kib / 1024.0);
    std::printf(" MiB\n");
    return errors.load() == 0 ? 0 : 1;
}
