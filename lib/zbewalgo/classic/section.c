// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sections of the lz and huffman4 steps: byte strings stored as they are
 * or coded by the huffman step, whichever is shorter.
 */
#include "../core/huffman.h"

/**
 * zbw_put_section() - write a section of the lz and huffman4 steps
 * @sec: the section's bytes
 * @len: their number
 * @dst: output position
 * @room: bytes free at @dst
 * @scratch: scratch of the huffman step
 *
 * A section is a varint v and v >> 1 bytes: a huffman step encoding of
 * the section when v is odd, the section itself when v is even.  Sections
 * shorter than ZBW_SECTION_SMALL bytes are not worth a code description.
 *
 * Return: bytes written, or -ENOSPC when they do not fit in @room.
 */
int zbw_put_section(const u8 *sec, size_t len, u8 *dst, size_t room,
		    void *scratch)
{
	unsigned int hl = ZBW_LEN_BYTES_MAX;
	int ret = -ENOSPC;

	if (len >= ZBW_SECTION_SMALL && room > hl + 1)
		ret = zbw_huf_encode(sec, len, dst + hl,
				     min(room - hl, len - 1), scratch);
	if (ret > 0) {
		unsigned int k = zbw_put_len(dst, dst + hl, (u32)ret << 1 | 1);

		memmove(dst + k, dst + hl, ret);
		return k + ret;
	}
	hl = zbw_put_len(dst, dst + room, (u32)len << 1);
	if (!hl || room - hl < len)
		return -ENOSPC;
	memcpy(dst + hl, sec, len);
	return hl + len;
}

/**
 * zbw_get_section() - read a section written by zbw_put_section()
 * @p: input position, moved past the section
 * @end: end of the input
 * @buf: where a Huffman coded section is decoded to
 * @room: bytes free at @buf
 * @sec: set to the section's bytes: @buf when it is coded, the input when
 *	it is stored
 * @scratch: scratch of the huffman step
 *
 * Return: the section's length, or -EINVAL when it is malformed or does
 * not fit in @room.
 */
int zbw_get_section(const u8 **p, const u8 *end, u8 *buf, size_t room,
		    const u8 **sec, void *scratch)
{
	unsigned int k;
	int ret;
	u32 v;

	k = zbw_get_len(*p, end, &v);
	if (!k || v >> 1 > end - *p - k)
		return -EINVAL;
	*p += k;
	if (v & 1) {
		ret = zbw_huf_decode(*p, v >> 1, buf, room, scratch);
		if (ret < 0)
			return -EINVAL;
		*sec = buf;
	} else {
		ret = v >> 1;
		*sec = *p;
	}
	*p += v >> 1;
	return ret;
}
