// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zstd step's form of a zstd frame (RFC 8878) and back.
 *
 * zstd's frame for one page repeats what a page already says: the
 * content size, and a block header whose size is the rest of the page.
 * The compact form leaves both out, five bytes on every page the step
 * ends, which is a third of a percent on text and more on pages that
 * compress well.
 */

#include "zbewalgo_internal.h"

/*
 * The Frame_Header_Descriptor's bits.  The compact form marks its first
 * byte with the reserved bit, which zstd refuses in a frame: a decoder
 * from before the form rejects the page, as it does a corrupt one.
 */
#define FHD_DICT_ID		0x03
#define FHD_CHECKSUM		0x04
#define FHD_COMPACT		0x08
#define FHD_UNUSED		0x10
#define FHD_SINGLE		0x20
/* A Block_Header: Last_Block and Block_Type, then Block_Size */
#define BLOCK_HEADER		3
#define BLOCK_KIND		0x7
#define BLOCK_LAST_COMPRESSED	(1 | 2 << 1)
/* A Window_Descriptor of 128 KiB, more than any stage */
#define WINDOW_128K		(7 << 3)

/*
 * In a frame header that starts with descriptor @fhd: where the
 * Dictionary_ID is and its length, and where the header ends.
 */
static size_t zbw_zstd_header(u8 fhd, size_t *id_pos, size_t *id_len)
{
	static const u8 id_bytes[4] = { 0, 1, 2, 4 };
	static const u8 size_bytes[4] = { 0, 2, 4, 8 };
	u8 size_flag = fhd >> 6;

	/* a Window_Descriptor unless the frame is a single segment */
	*id_pos = 1 + !(fhd & FHD_SINGLE);
	*id_len = id_bytes[fhd & FHD_DICT_ID];
	/* whose content size takes a byte even where the flag is 0 */
	return *id_pos + *id_len + size_bytes[size_flag] +
	       (!size_flag && (fhd & FHD_SINGLE));
}

/**
 * zbw_zstd_pack() - a zstd frame in the zstd step's form
 * @f: the frame after its magic number
 * @n: its length
 * @dst: where the step's form goes
 * @dcap: room at @dst
 *
 * A frame of one compressed block without a checksum becomes the
 * compact form: its descriptor with the reserved bit set and nothing but
 * its Dictionary_ID flag, the Dictionary_ID, the block's content.  Any
 * other frame stays as it is.
 *
 * Return: the form's length, -ENOSPC when it does not fit.
 */
int zbw_zstd_pack(const u8 *f, size_t n, u8 *dst, unsigned int dcap)
{
	size_t id_pos, id_len, pos = zbw_zstd_header(f[0], &id_pos, &id_len);
	u32 block;

	if (!(f[0] & (FHD_CHECKSUM | FHD_COMPACT | FHD_UNUSED)) &&
	    n >= pos + BLOCK_HEADER) {
		block = get_unaligned_le24(f + pos);
		pos += BLOCK_HEADER;
		if ((block & BLOCK_KIND) == BLOCK_LAST_COMPRESSED &&
		    pos + (block >> 3) == n) {
			if (1 + id_len + n - pos > dcap)
				return -ENOSPC;
			dst[0] = (f[0] & FHD_DICT_ID) | FHD_COMPACT;
			memcpy(dst + 1, f + id_pos, id_len);
			memcpy(dst + 1 + id_len, f + pos, n - pos);
			return 1 + id_len + n - pos;
		}
	}
	if (n > dcap)
		return -ENOSPC;
	memcpy(dst, f, n);
	return n;
}

/**
 * zbw_zstd_unpack() - the zstd frame a zstd step's form stands for
 * @src: the form
 * @slen: its length
 * @f: where the frame goes, after its magic number
 * @cap: room at @f
 *
 * A compact form gets a frame header without a content size, which
 * zstd's decoder does not need, and a window larger than any stage.
 *
 * Return: the frame's length, 0 when @src cannot be one or it does not
 * fit.
 */
size_t zbw_zstd_unpack(const u8 *src, unsigned int slen, u8 *f, size_t cap)
{
	size_t id_pos, id_len, pos;
	u8 fhd;

	if (!slen)
		return 0;
	fhd = src[0] & ~FHD_COMPACT;
	if (!(src[0] & FHD_COMPACT)) {
		if (slen > cap)
			return 0;
		memcpy(f, src, slen);
		return slen;
	}
	if (fhd & ~FHD_DICT_ID)
		return 0;
	pos = zbw_zstd_header(fhd, &id_pos, &id_len);
	/* the descriptor and the id are there: a window and a block come */
	if (slen < 1 + id_len || slen + 1 + BLOCK_HEADER > cap)
		return 0;
	f[0] = fhd;
	f[1] = WINDOW_128K;
	memcpy(f + id_pos, src + 1, id_len);
	slen -= 1 + id_len;
	put_unaligned_le24(slen << 3 | BLOCK_LAST_COMPRESSED, f + pos);
	memcpy(f + pos + BLOCK_HEADER, src + 1 + id_len, slen);
	return pos + BLOCK_HEADER + slen;
}

/**
 * zbw_zstd_dict_id() - the Dictionary_ID of a zstd frame
 * @f: the frame after its magic number
 * @n: its length
 *
 * Return: the id, 0 for none; -EINVAL when the header is cut short.
 */
s64 zbw_zstd_dict_id(const u8 *f, size_t n)
{
	size_t id_pos, id_len;
	u32 id = 0;

	if (!n || n < zbw_zstd_header(f[0], &id_pos, &id_len))
		return -EINVAL;
	while (id_len--)
		id = id << 8 | f[id_pos + id_len];
	return id;
}
