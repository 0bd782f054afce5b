package avroschema

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/twmb/avro"
)

// CanonicalBinary rewrites Avro binary data of schema s in the one form a writer
// has no choice over: every array and map as a single block with a plain
// count (no negative count and byte size), map entries sorted by key. The
// specification leaves both to the writer: hamba/avro writes blocks of at
// most 100 items with their byte size, twmb/avro (like Java's default
// encoder) one block with a count, and both write a Go map in Go's random
// iteration order. Two encodings of the same data have equal canonical
// forms.
func CanonicalBinary(s *avro.Schema, data []byte) ([]byte, error) {
	c := binaryCanon{defs: map[*avro.SchemaNode]*avro.SchemaNode{}}
	out, rest, err := c.value(s.Root(), data)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("%d bytes after the value", len(rest))
	}
	return out, nil
}

type binaryCanon struct {
	defs map[*avro.SchemaNode]*avro.SchemaNode // Deref's answers: it parses
}

func (c binaryCanon) deref(n *avro.SchemaNode) *avro.SchemaNode {
	d, ok := c.defs[n]
	if !ok {
		d = Deref(n)
		c.defs[n] = d
	}
	return d
}

var errShort = errors.New("data ends inside a value")

func varlong(b []byte) (int64, []byte, error) {
	u, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, errShort
	}
	return int64(u>>1) ^ -int64(u&1), b[n:], nil
}

func appendVarlong(dst []byte, v int64) []byte {
	return binary.AppendUvarint(dst, uint64(v<<1)^uint64(v>>63))
}

// take splits off the first n bytes of b.
func takeBytes(b []byte, n int64) ([]byte, []byte, error) {
	if n < 0 || int64(len(b)) < n {
		return nil, nil, errShort
	}
	return b[:n], b[n:], nil
}

// value reads one value of n from b and returns its canonical form and
// the rest of b.
func (c binaryCanon) value(n *avro.SchemaNode, b []byte) (out, rest []byte, err error) {
	n = c.deref(n)
	switch Kind(n) {
	case "null":
		return nil, b, nil
	case "boolean":
		return takeBytes(b, 1)
	case "int", "long", "enum":
		v, rest, err := varlong(b)
		return appendVarlong(nil, v), rest, err
	case "float":
		return takeBytes(b, 4)
	case "double":
		return takeBytes(b, 8)
	case "fixed":
		return takeBytes(b, int64(n.Size))
	case "bytes", "string":
		l, rest, err := varlong(b)
		if err != nil {
			return nil, nil, err
		}
		v, rest, err := takeBytes(rest, l)
		return append(appendVarlong(nil, l), v...), rest, err
	case "union":
		i, rest, err := varlong(b)
		if err != nil || i < 0 || i >= int64(len(n.Branches)) {
			return nil, nil, fmt.Errorf("union branch %d of %d: %v", i, len(n.Branches), err)
		}
		v, rest, err := c.value(&n.Branches[i], rest)
		return append(appendVarlong(nil, i), v...), rest, err
	case "record":
		for i := range n.Fields {
			var v []byte
			if v, b, err = c.value(&n.Fields[i].Type, b); err != nil {
				return nil, nil, fmt.Errorf("field %s: %w", n.Fields[i].Name, err)
			}
			out = append(out, v...)
		}
		return out, b, nil
	case "array":
		items, rest, err := c.blocks(b, func(b []byte) ([]byte, []byte, error) { return c.value(n.Items, b) })
		if err != nil {
			return nil, nil, err
		}
		return joinItems(items), rest, nil
	case "map":
		entries, rest, err := c.blocks(b, func(b []byte) ([]byte, []byte, error) {
			k, rest, err := c.value(&avro.SchemaNode{Type: "string"}, b)
			if err != nil {
				return nil, nil, err
			}
			v, rest, err := c.value(n.Values, rest)
			return append(k, v...), rest, err
		})
		if err != nil {
			return nil, nil, err
		}
		sort.Slice(entries, func(i, j int) bool { return bytes.Compare(entries[i], entries[j]) < 0 })
		return joinItems(entries), rest, nil
	}
	return nil, nil, fmt.Errorf("type %q", n.Type)
}

// blocks reads an array's or map's blocks, each item with item.
func (c binaryCanon) blocks(b []byte, item func([]byte) ([]byte, []byte, error)) ([][]byte, []byte, error) {
	var items [][]byte
	for {
		count, rest, err := varlong(b)
		if err != nil {
			return nil, nil, err
		}
		b = rest
		if count == 0 {
			return items, b, nil
		}
		if count < 0 { // a negative count is followed by the block's size in bytes
			count = -count
			if _, b, err = varlong(b); err != nil {
				return nil, nil, err
			}
		}
		for ; count > 0; count-- {
			var v []byte
			if v, b, err = item(b); err != nil {
				return nil, nil, err
			}
			items = append(items, v)
		}
	}
}

// join is items as one block with a plain count.
func joinItems(items [][]byte) []byte {
	var out []byte
	if len(items) > 0 {
		out = appendVarlong(out, int64(len(items)))
		for _, it := range items {
			out = append(out, it...)
		}
	}
	return append(out, 0)
}
