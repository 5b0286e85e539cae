import ai.mcts.MCTSOptions;
import ai.mcts.TreeNode;
import ai.framework.IMove;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

/**
 * The root of one search of a player of the paper authors' Java code (tpepels/mcts_gameframe,
 * compiled on the class path), many times over, for `scripts/compare_root_stats.py`: the same
 * search with other seeds gives a distribution of chosen moves and root visit counts, which an
 * implementation of the same algorithm must reproduce. This file is imcts's own; it builds the
 * player's options from a `SimGame` label as `PaperRate.java` does and runs the search loop of
 * the code's `MCTSPlayer.run` (fixed simulations) on a fresh root, so the root's children can be
 * read after the search (the code's player drops its root when the search ends).
 *
 * Usage: java -cp BUILD:. PaperRootStats LABEL SIMS SEEDS FIRST_SEED < POSITIONS
 *
 * POSITIONS holds one Breakthrough position a line in imcts's notation (`PaperRate.board`). For
 * each position and each seed s in FIRST_SEED .. FIRST_SEED + SEEDS - 1 the code's generator is
 * seeded with s and one search of exactly SIMS simulations runs (the code's fixed mode runs one
 * more; this loop runs SIMS, as `imcts search --sims SIMS` does, and stops early on a proven win
 * as the code does). One line a search:
 * `{"pos":P,"seed":S,"best":"e2-e3","sims":N,"children":[["e2-e3",VISITS,MEAN],...]}`, moves in
 * imcts's notation, visits as the code counts them (node priors included), MEAN the child's
 * mean reward for the side to move at the root (±999999 when proven).
 */
public class PaperRootStats {
    static String move(int[] a, boolean capture) {
        return "" + (char) ('a' + a[1]) + (8 - a[0]) + (capture ? 'x' : '-') + (char) ('a' + a[3]) + (8 - a[2]);
    }

    static String move(IMove m) {
        return move(m.getMove(), m.getType() == breakthrough.game.Move.CAPTURE);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4)
            throw new IllegalArgumentException("usage: PaperRootStats LABEL SIMS SEEDS FIRST_SEED < POSITIONS");
        String label = args[0];
        int sims = Integer.parseInt(args[1]);
        int seeds = Integer.parseInt(args[2]);
        long first = Long.parseLong(args[3]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        List<String> positions = new ArrayList<>();
        for (String line; (line = in.readLine()) != null; )
            if (!line.isBlank()) positions.add(line.trim());
        StringBuilder out = new StringBuilder();
        for (int p = 0; p < positions.size(); p++) {
            for (long s = first; s < first + seeds; s++) {
                breakthrough.game.Board b = PaperRate.board(positions.get(p));
                MCTSOptions o = PaperRate.options(label, 1000);
                o.fixedSimulations = true;
                o.simulations = sims;
                MCTSOptions.r.setSeed(s);
                int me = b.getPlayerToMove();
                TreeNode root = new TreeNode(me, o);
                breakthrough.game.Board board = (breakthrough.game.Board) b.copy();
                int done = 0;
                while (done < sims) {
                    done++;
                    board.newDeterminization(me);
                    if (root.MCTS(board, 0, root.player) == TreeNode.INF)
                        break;
                }
                TreeNode best = root.getBestChild(board);
                out.setLength(0);
                out.append("{\"pos\":").append(p).append(",\"seed\":").append(s)
                        .append(",\"best\":\"").append(move(best.getMove())).append("\",\"sims\":").append(done)
                        .append(",\"children\":[");
                boolean comma = false;
                for (TreeNode c : root.getChildren()) {
                    if (comma) out.append(',');
                    comma = true;
                    out.append("[\"").append(move(c.getMove())).append("\",").append((long) c.getnVisits()).append(',')
                            .append(c.stats.mean()).append(']');
                }
                out.append("]}");
                System.out.println(out);
            }
        }
        System.out.flush();
    }
}
