-- wrk script of bench/lib.sh's wrk_moves: posts moves to the games listed
-- in the file named after wrk's `--` (lines "id white-token black-token").
-- Request n plays ply n / N of game n % N (N games, the same 8 plies each),
-- so a game's next move goes out long after its last one was answered;
-- each of wrk's two threads takes every other game.
local games, n = {}, 0
local plies = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "d2d3", "d7d6"}
local nthreads = 0
function setup(thread) thread:set("tid", nthreads); nthreads = nthreads + 1 end
function init(args)
  local f = io.open(args[1])
  local k = 0
  for line in f:lines() do
    if k % 2 == tonumber(tid) then
      local id, w, b = line:match("(%S+) (%S+) (%S+)")
      games[#games + 1] = {id, w, b}
    end
    k = k + 1
  end
  f:close()
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  local g = games[(n % #games) + 1]
  local p = math.floor(n / #games) % #plies + 1
  n = n + 1
  local side = (p % 2 == 1) and g[2] or g[3]
  return wrk.format(nil, "/api/games/" .. g[1] .. "/move", nil,
    '{"token":"' .. side .. '","move":"' .. plies[p] .. '"}')
end
