// Package proctest finds the processes a test started, through /proc, so
// that a test can say a cancelled run left none behind: every descendant
// gone, every process group it made empty (Linux).
package proctest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Process is a process as /proc saw it; Start tells a reused pid apart.
type Process struct {
	Pid, Pgid int
	Start     string
	Cmdline   string
}

// Descendants lists every process below pid.
func Descendants(pid int) []Process {
	all := processes()
	var out []Process
	parents := map[int]bool{pid: true}
	for grew := true; grew; {
		grew = false
		for p, ppid := range all {
			if parents[ppid] && !parents[p.Pid] {
				parents[p.Pid] = true
				out = append(out, p)
				grew = true
			}
		}
	}
	return out
}

// processes maps every process to its parent.
func processes() map[Process]int {
	out := map[Process]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		p, ppid, ok := read(pid)
		if ok {
			out[p] = ppid
		}
	}
	return out
}

// read reads a process from /proc: fields after the command name are
// state, ppid, pgrp, …, starttime (the 20th).
func read(pid int) (Process, int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Process{}, 0, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 || f[0] == "Z" {
		return Process{}, 0, false // gone, or a zombie: it runs nothing
	}
	ppid, _ := strconv.Atoi(f[1])
	pgid, _ := strconv.Atoi(f[2])
	cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return Process{Pid: pid, Pgid: pgid, Start: f[19], Cmdline: strings.ReplaceAll(string(cmdline), "\x00", " ")}, ppid, true
}

// Alive says whether p still runs (the same process, not a reused pid).
func Alive(p Process) bool {
	now, _, ok := read(p.Pid)
	return ok && now.Start == p.Start
}

// Running says whether one of ps has arg in its command line.
func Running(ps []Process, arg string) bool {
	for _, p := range ps {
		if strings.Contains(p.Cmdline, arg) {
			return true
		}
	}
	return false
}

// InGroup lists the processes of group pgid.
func InGroup(pgid int) []Process {
	var out []Process
	for p := range processes() {
		if p.Pgid == pgid {
			out = append(out, p)
		}
	}
	return out
}

// GroupGone says whether no process runs in group pgid (a zombie its
// new parent has not reaped yet runs nothing).
func GroupGone(pgid int) bool {
	return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) || len(InGroup(pgid)) == 0
}

// WaitFor polls this process's descendants until one matches, and returns
// them all; ok is false after within.
func WaitFor(within time.Duration, match func(Process) bool) (ps []Process, ok bool) {
	for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		ps = Descendants(os.Getpid())
		for _, p := range ps {
			if match(p) {
				return ps, true
			}
		}
	}
	return ps, false
}

// Runs matches a process whose command line starts with prefix.
func Runs(prefix string) func(Process) bool {
	return func(p Process) bool { return strings.HasPrefix(p.Cmdline, prefix) }
}

// NoneLeft fails t for every process of ps still running and every
// process group of theirs that still has a member.
func NoneLeft(t testing.TB, ps []Process) {
	t.Helper()
	for _, p := range ps {
		if Alive(p) {
			t.Errorf("process %d (%s) outlived its run", p.Pid, p.Cmdline)
		}
		if !GroupGone(p.Pgid) {
			t.Errorf("process group %d of %d (%s) still has processes: %+v", p.Pgid, p.Pid, p.Cmdline, InGroup(p.Pgid))
		}
	}
}

// Cancel calls cancel and waits for the run's error on done; it fails t if
// the run does not return within a minute. took is from the cancel to the
// return.
func Cancel(t testing.TB, cancel func(), done <-chan error) (took time.Duration, err error) {
	t.Helper()
	cancel()
	start := time.Now()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the run did not return within a minute of the cancel")
	}
	return time.Since(start), err
}
