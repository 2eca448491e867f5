// SPDX-License-Identifier: GPL-2.0-only
// A JVM program: a large HashMap of boxed keys to small objects and an int
// array, updated in passes, as a server's in-memory index; the collector
// walks the whole heap again and again.
import java.util.HashMap;
import java.util.Random;

public class HeapMap {
	static final class Entry {
		long stamp;
		double weight;
		String label;
		int[] hist = new int[4];
	}

	public static void main(String[] args) {
		int n = args.length > 0 ? Integer.parseInt(args[0]) : 600000;
		Random rng = new Random(34);
		HashMap<Long, Entry> map = new HashMap<>();
		int[] counts = new int[n];
		for (int i = 0; i < n; i++) {
			Entry e = new Entry();
			e.stamp = System.nanoTime();
			e.weight = rng.nextGaussian();
			e.label = "item-" + i + "-" + (i % 97);
			map.put((long) i * 2654435761L, e);
		}
		long sum = 0;
		for (int pass = 0; pass < 4; pass++) {
			for (int i = 0; i < n; i++) {
				Entry e = map.get((long) rng.nextInt(n) * 2654435761L);
				e.hist[pass]++;
				e.weight = e.weight * 0.5 + pass;
				counts[i] += e.label.length();
				sum += e.hist[pass];
			}
		}
		System.out.println("HeapMap: " + map.size() + " entries, sum " + sum);
	}
}
