//go:build race

package suite_test

// raceScale stretches the hostile table's deadlines and time bounds: the
// race detector makes the fleet several times slower, and the flooding
// orchestrators (2,000 card fetches, 500 sends of 60 KiB) then miss a
// deadline made for a plain build.
const raceScale = 3
